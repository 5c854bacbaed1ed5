package job

import (
	"maps"
	"testing"
)

func TestRelevantEnv(t *testing.T) {
	got := relevantEnv([]string{"OMPI_MCA_btl_vader_eager_limit=8192", "UCX_TLS=sm", "MPIR_CVAR_CH4_NETMOD=ofi",
		"OMPI_MCA_orte_hnp_uri=123", "OMPI_MCA_ess_base_jobid=1", "HOME=/root", "SLURM_JOB_ID=7", "PATH=/bin"})
	want := map[string]string{"OMPI_MCA_btl_vader_eager_limit": "8192", "UCX_TLS": "sm", "MPIR_CVAR_CH4_NETMOD": "ofi", "SLURM_JOB_ID": "7"}
	if !maps.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	// Result files are shared: values of secret-looking names never reach them.
	got = relevantEnv([]string{"I_MPI_PASSWORD=hunter2", "FI_PROVIDER_TOKEN=abc", "UCX_SECRET=s", "OMPI_MCA_btl_tcp_KEY=k",
		"UCX_TLS=sm", "SLURM_JOB_ID_CREDENTIAL=c"})
	want = map[string]string{"I_MPI_PASSWORD": Redacted, "FI_PROVIDER_TOKEN": Redacted, "UCX_SECRET": Redacted,
		"OMPI_MCA_btl_tcp_KEY": Redacted, "UCX_TLS": "sm", "SLURM_JOB_ID_CREDENTIAL": Redacted}
	if !maps.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}
