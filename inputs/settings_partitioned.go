package inputs

// partitionSettings are what the MPI-4 partitioned operations take beside the common
// settings (settingList joins them).
type partitionSettings struct {
	// Partitions: how many parts a partitioned send is made ready in (MPI_Pready each).
	Partitions int
}

func defaultPartitionSettings() partitionSettings {
	return partitionSettings{Partitions: 8}
}

var partitionSettingList = []setting{
	{"partitions", "partitioned communication (Pingpong_Partitioned): the parts a message is sent in, each made ready by MPI_Pready (default 8); msg_bytes must be a multiple of it", func(s *Settings, v any) (err error) {
		s.Partitions, err = intIn(v, 1, 1<<16)
		return
	}},
}

// checkPersistent reports a persistent operation under cold caches and partitioned
// sizes the partitions do not divide.
func (d *decoder) checkPersistent(m Measurement, origin map[string]string, path string) {
	if m.Op.Persistent && m.Settings.Cache == CacheCold {
		d.errAt(origin["cache"], "%s makes its requests once per point, bound to one buffer: cache = \"cold\" would move the buffers every step; use \"warm\"", m.Op.Name)
	}
	if !m.Op.Partitioned {
		return
	}
	for _, n := range m.Sizes {
		if n%int64(m.Settings.Partitions) != 0 {
			d.errAt(path+".sizes", "%s sends msg_bytes in %d partitions (partitions): every size must be a multiple of %d, got %d",
				m.Op.Name, m.Settings.Partitions, m.Settings.Partitions, n)
			return
		}
	}
}
