package main

// usageError is a mistake on the command line: exit status 2. main prints err first,
// then one line naming the command's --help, not the whole usage.
func usageError(err error) error {
	return &exitError{Code: 2, Err: err}
}
