package mpi

import (
	"reflect"
	"testing"
)

// Components come from variable names FRAMEWORK_COMPONENT_...: base and unknown
// frameworks are not components, and each is listed once.
func TestAddComponent(t *testing.T) {
	c := map[string][]string{}
	for _, n := range []string{"pml_ob1_free_list_num", "pml_base_verbose", "pml_wrapper", "pml_ob1_priority", "btl_vader_eager_limit",
		"btl_self_flags", "mpi_leave_pinned", "opal_common_ucx_tls", "osc_ucx_priority", "pml", "btl_", "coll_han_priority"} {
		addComponent(c, n)
	}
	want := map[string][]string{"pml": {"ob1"}, "btl": {"vader", "self"}, "osc": {"ucx"}, "coll": {"han"}}
	if !reflect.DeepEqual(c, want) {
		t.Errorf("components %v, want %v", c, want)
	}
}
