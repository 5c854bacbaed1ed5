package ops

// Corruption is the first received byte that differed from what was sent, as the
// rank that received it found it (check_data).
type Corruption struct {
	From       int   // the sender, a rank of the operation's communicator
	Slot       int   // the receive slot (window) or block (per-process) holding it
	Offset     int64 // in the message
	Expected   byte
	Actual     byte
	Repetition int // of the operation, counted from 0, warm-up included
}
