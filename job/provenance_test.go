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
}
