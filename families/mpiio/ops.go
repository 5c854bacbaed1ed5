package mpiio

import "github.com/skampi/skampi/ops"

// MPI-IO (SKaMPI's MPI_IO measurements, IMB-IO): every process of the communicator
// works on its own block of the point's file, msg_bytes at offset rank * msg_bytes
// (no two blocks overlap), in the directory under test (the setting io_dir); the
// _Private ones each a file of its own (IMB-IO's P_*_priv). The
// file is created before the point (the reads' blocks written then) and deleted after
// it, whatever happened. Each repetition is one synchronised call, timed on every
// process; the slowest process's time is the repetition's. "_Sync" operations call
// MPI_File_sync after the write inside the time (IMB-IO's non-aggregate mode); the
// others leave the data to the library and the operating system's cache. Records
// carry io_dir and the library's hints (MPI_File_get_info) as io_hints.
// Kernels: kernels/io.c.
// Registered at 2500, where the catalogue had them: skampi list keeps its order.
var _ = ops.Register(2500, []ops.Info{
	ioNoData("File_Open_Close", "file_open_close", "MPI_File_open (MPI_MODE_CREATE | MPI_MODE_RDWR) then MPI_File_close of an existing file, timed together (collective)"),
	callTimed(ioNoData("File_Open", "file_open", "MPI_File_open of an existing file (collective), timed alone; the MPI_File_close after it is not timed")),
	callTimed(ioNoData("File_Close", "file_close", "MPI_File_close (collective), timed alone; the MPI_File_open before it is not timed")),
	ioNoData("File_Set_View", "file_set_view", "MPI_File_set_view (collective): displacement at this process's block, MPI_BYTE etype and filetype, \"native\""),

	imbSynced(ioOp("File_Write_At", "file_write_at", "MPI_File_write_at of msg_bytes at this process's block (explicit offset, independent); no sync"), "P_Write_expl"),
	ioOp("File_Write_At_Sync", "file_write_at_sync", "MPI_File_write_at then MPI_File_sync (collective), both timed: the data reaches the file system"),
	ioOp("File_Read_At", "file_read_at", "MPI_File_read_at of msg_bytes from this process's block (explicit offset, independent)"),
	imbSynced(ioOp("File_Write", "file_write", "MPI_File_seek to this process's block (local) then MPI_File_write (individual file pointer); no sync"), "P_Write_indv"),
	ioOp("File_Write_Sync", "file_write_sync", "MPI_File_seek, MPI_File_write then MPI_File_sync (collective), all timed"),
	ioOp("File_Read", "file_read", "MPI_File_seek to this process's block (local) then MPI_File_read (individual file pointer)"),
	imbSynced(callTimed(ioOp("File_Write_Shared", "file_write_shared", "MPI_File_write_shared (shared file pointer: the processes' blocks one after another, in any order), timed alone; the pointer is set back to 0 with MPI_File_seek_shared before it, untimed; no sync")), "P_Write_shared"),
	callTimed(ioOp("File_Write_Shared_Sync", "file_write_shared_sync", "MPI_File_write_shared then MPI_File_sync (collective), timed; MPI_File_seek_shared to 0 before, untimed")),
	callTimed(ioOp("File_Read_Shared", "file_read_shared", "MPI_File_read_shared (shared file pointer: each process reads one of the blocks, in any order), timed alone; MPI_File_seek_shared to 0 before, untimed")),
	imbSynced(ioOp("File_Write_All", "file_write_all", "MPI_File_seek to this process's block (local) then MPI_File_write_all (collective, individual file pointer); no sync"), "C_Write_indv"),
	ioOp("File_Write_All_Sync", "file_write_all_sync", "MPI_File_seek, MPI_File_write_all then MPI_File_sync, all timed"),
	ioOp("File_Read_All", "file_read_all", "MPI_File_seek to this process's block (local) then MPI_File_read_all (collective)"),
	imbSynced(ioOp("File_Write_At_All", "file_write_at_all", "MPI_File_write_at_all of msg_bytes at this process's block (collective, explicit offset); no sync"), "C_Write_expl"),
	ioOp("File_Write_At_All_Sync", "file_write_at_all_sync", "MPI_File_write_at_all then MPI_File_sync, both timed"),
	ioOp("File_Read_At_All", "file_read_at_all", "MPI_File_read_at_all from this process's block (collective, explicit offset)"),
	imbSynced(callTimed(ioOp("File_Write_Ordered", "file_write_ordered", "MPI_File_write_ordered (collective, shared file pointer: the blocks in rank order), timed alone; MPI_File_seek_shared to 0 before, untimed; no sync")), "C_Write_shared"),
	callTimed(ioOp("File_Write_Ordered_Sync", "file_write_ordered_sync", "MPI_File_write_ordered then MPI_File_sync, timed; MPI_File_seek_shared to 0 before, untimed")),
	callTimed(ioOp("File_Read_Ordered", "file_read_ordered", "MPI_File_read_ordered (collective, shared file pointer, in rank order), timed alone; MPI_File_seek_shared to 0 before, untimed")),
	ioOp("File_Write_All_Begin_End", "file_write_all_begin_end", "MPI_File_seek (local), MPI_File_write_all_begin then MPI_File_write_all_end (split collective); no sync"),
	ioOp("File_Read_All_Begin_End", "file_read_all_begin_end", "MPI_File_seek (local), MPI_File_read_all_begin then MPI_File_read_all_end (split collective)"),
	ioOp("File_Iwrite_At", "file_iwrite_at", "MPI_File_iwrite_at at this process's block then MPI_Wait (non-blocking, independent); no sync"),
	ioOp("File_Iread_At", "file_iread_at", "MPI_File_iread_at from this process's block then MPI_Wait (non-blocking, independent)"),
	ioOp("File_Iwrite_At_All", "file_iwrite_at_all", "MPI_File_iwrite_at_all at this process's block then MPI_Wait (non-blocking collective, MPI-3.1); no sync"),
	imbSynced(privateFile(ioOp("File_Write_Private", "file_write_private", "MPI_File_write_at of msg_bytes at offset 0 of this process's own file (opened on MPI_COMM_SELF; the point's file name with .rankN after it), independent; no sync (IMB-IO's P_Write_priv)")), "P_Write_priv"),
	privateFile(ioOp("File_Read_Private", "file_read_private", "MPI_File_read_at of msg_bytes at offset 0 of this process's own file (opened on MPI_COMM_SELF, written before the point), independent (IMB-IO's P_Read_priv)")),
	ioOp("File_Iread_At_All", "file_iread_at_all", "MPI_File_iread_at_all from this process's block then MPI_Wait (non-blocking collective, MPI-3.1)"),
})

// imbSynced gives a write IMB-IO's completion as the method imb: the write, then
// MPI_File_sync, MPI_Barrier and MPI_File_sync, all timed (IMB's non-aggregate mode,
// one write per sample); with a window of N (Method.Aggregate), N writes, each at the
// place IMB gives the next one, then the three calls once, the time divided by N (IMB's
// aggregate mode). peer names the IMB-IO benchmark.
func imbSynced(in ops.Info, peer string) ops.Info {
	in.Methods = append(in.Methods, ops.Method{Name: "imb", Kernel: in.Kernel + "_imb", Aggregate: true,
		Description: "IMB-IO's " + peer + ": the write, then MPI_File_sync, MPI_Barrier on the file's communicator and MPI_File_sync, all timed (IMB 3.1 on, non-aggregate); with a window of N, N writes then the three calls once, the time per write (IMB's aggregate mode)"})
	return in
}

func ioOp(name, kernel, desc string) ops.Info {
	return ops.Info{Name: name, Family: "io", Kernel: kernel, Pattern: ops.PatternAll, Reduce: ops.ReduceMax, Directions: 1,
		Bandwidth: true, SingleShot: true, IO: true,
		Description: desc + "; msg_bytes per process, each its own block of one file in io_dir; bandwidth_Bps is per process, msg_bytes / time of the slowest"}
}

// privateFile: every process works on a file of its own.
func privateFile(in ops.Info) ops.Info { in.PrivateFile = true; return in }

func ioNoData(name, kernel, desc string) ops.Info {
	in := ioOp(name, kernel, desc)
	in.Bandwidth, in.NoData = false, true
	in.Description = desc + "; the point's file in io_dir"
	return in
}

// callTimed: the operation's time is one call of its step, timed alone (ops.Info.CallTimed).
func callTimed(in ops.Info) ops.Info { in.CallTimed = true; return in }
