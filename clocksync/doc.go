// Package clocksync fits a model global = f(local) of each rank's clock against a
// reference clock (SKaMPI's offset bounds, hierarchical drift-aware algorithms). It is
// pure Go over a one-primitive interface and is filled in with window synchronisation.
package clocksync
