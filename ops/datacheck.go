package ops

// OrderChecked: check_data reaches a one-sided or OpenSHMEM operation's data under
// method, which checks an order (Method.OrderChecked).
func (in Info) OrderChecked(method string) bool {
	m, _ := in.Method(method)
	return m.OrderChecked
}

// DataCheckReaches: check_data may reach a one-sided or OpenSHMEM operation's data under
// method (the engine's datatypes_check.c): where the method checks an order, or where
// the operation takes a data layout, which lays the payload where the check sees it
// when strided (the layout family clears it for a contiguous one).
func (in Info) DataCheckReaches(method string) bool { return in.OrderChecked(method) || in.Layouts }
