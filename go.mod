module github.com/skampi/skampi

go 1.26

require (
	github.com/pelletier/go-toml/v2 v2.4.3
	github.com/spf13/cobra v1.10.2
	github.com/spf13/pflag v1.0.10
)

require github.com/inconshreveable/mousetrap v1.1.0 // indirect
