package ops

// OrderChecked: check_data reaches a one-sided or OpenSHMEM operation's data under
// method, which checks an order (Method.OrderChecked). Elsewhere only a strided layout
// lays its data where the check sees it (datatypes_check.c, families/layout).
func (in Info) OrderChecked(method string) bool {
	m, _ := in.Method(method)
	return m.OrderChecked
}
