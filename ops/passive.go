package ops

// defaultMode is the mode a one-sided operation with modes runs under when no method
// is named (RMA_OP's in families/onesided/kernels/rma.c), OSU's default.
const defaultMode = "flush"

// PassiveTarget: the operation under the method named (its default mode when "")
// leaves its target passive, so the target can be kept busy (target_busy).
func (in Info) PassiveTarget(method string) bool {
	if method == "" && in.TargetPassive {
		return true
	}
	if method == "" && in.OneSided {
		method = defaultMode
	}
	m, ok := in.Method(method)
	return ok && m.Passive
}
