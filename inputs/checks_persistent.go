package inputs

// checkPersistent reports a persistent operation under cold caches.
func (d *decoder) checkPersistent(m Measurement, origin map[string]string) {
	if m.Op.Persistent && m.Settings.Cache == CacheCold {
		d.errAt(origin["cache"], "%s makes its requests once per point, bound to one buffer: cache = \"cold\" would move the buffers every step; use \"warm\"", m.Op.Name)
	}
}
