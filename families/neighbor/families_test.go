package neighbor_test

// The family's settings are listed before partitioned communication's (partitions,
// families/partitioned), as the core had them: its tests link every family in, as the
// program does.
import _ "github.com/skampi/skampi/families/all"
