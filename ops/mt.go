package ops

// The multi-threaded operations are the family's (families/mt registers them); the
// catalogue keeps what records, settings and the run's thread level read of them.

// MaxThreads bounds the threads per rank of a multi-threaded operation: the setting
// threads, and what a record of one may hold.
const MaxThreads = 64

// ThreadComms are the ways the threads of a multi-threaded operation keep their
// messages apart (the thread_comm setting): a communicator each, duplicated for the
// point, or the pair's communicator shared with a tag each.
var ThreadComms = []string{"dup", "tag"}

// ThreadPinnings: "none" leaves the threads where the system puts them; "core" pins
// thread i of a rank to one CPU of the rank's own set, in turn.
var ThreadPinnings = []string{"none", "core"}

// NeedsThreadMultiple: a run measuring op must initialise MPI with
// MPI_THREAD_MULTIPLE.
func (in Info) NeedsThreadMultiple() bool { return in.Threaded }

// MessagesPerStep is how many messages one thread's timed step sends, both ways: a
// round trip two, a window its messages in each of its directions (the ack left out,
// as OSU counts).
func (in Info) MessagesPerStep(window int) int {
	if in.Windowed {
		return window * max(in.Directions, 1)
	}
	return in.Directions
}
