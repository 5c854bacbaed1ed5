package ops

// DataCheckedOneSided: check_data reaches a one-sided or OpenSHMEM operation's data
// only where its method checks an order, or a strided layout (layout, one of
// DataLayouts) lays it (datatypes_check.c).
func (in Info) DataCheckedOneSided(method, layout string) bool {
	m, _ := in.Method(method)
	return m.OrderChecked || in.Layouts && Strided(layout)
}
