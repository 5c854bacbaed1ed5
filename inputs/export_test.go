package inputs

// For the external tests (package inputs_test), which link the families in.
var BuiltinSuitesAtAnyProcessCount = builtinSuitesAtAnyProcessCount
