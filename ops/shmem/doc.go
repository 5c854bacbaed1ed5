// Package shmem implements OpenSHMEM operations (cgo, build tag shmem).
package shmem
