package testenv

import (
	"net/http"
	"testing"
)

func TestStripeMockAnswers(t *testing.T) {
	m := NewStripeMock(t)
	req, _ := http.NewRequest(http.MethodGet, m.URL()+"/v1/customers", nil)
	req.Header.Set("Authorization", "Bearer sk_test_123")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /v1/customers: %d", resp.StatusCode)
	}
}
