package health

import (
	"testing"

	"github.com/prometheus/client_golang/prometheus/testutil"
)

func TestCounted(t *testing.T) {
	ok, dns := testutil.ToFloat64(checks.WithLabelValues("ok")), testutil.ToFloat64(checks.WithLabelValues(ErrDNS))
	counted(Result{Status: 200})
	counted(Result{Error: ErrDNS})
	counted(Result{Error: ErrDNS})
	if got := testutil.ToFloat64(checks.WithLabelValues("ok")) - ok; got != 1 {
		t.Errorf("ok counted %v times, want 1", got)
	}
	if got := testutil.ToFloat64(checks.WithLabelValues(ErrDNS)) - dns; got != 2 {
		t.Errorf("dns counted %v times, want 2", got)
	}
}
