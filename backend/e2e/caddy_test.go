package e2e

import (
	"context"
	"crypto/tls"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/shortlink/shortlink/backend/testenv"
)

// TestCaddyOnDemandTLS runs Caddy with the shipped Caddyfile in front of a server: a verified
// custom domain gets a certificate at its first handshake and its links redirect through
// Caddy; a pending or unknown name gets no certificate (the ask endpoint refused it); the
// service's own domain is served too, and plain http is redirected to https. Only what a test
// machine needs is added to the file's global options: other ports, Caddy's local certificate
// authority instead of a public one, no admin endpoint.
func TestCaddyOnDemandTLS(t *testing.T) {
	caddy, err := exec.LookPath("caddy")
	if err != nil {
		t.Fatal("caddy is not installed (Debian: apt-get install -y caddy)")
	}
	ns := startDNS(t)
	s := newDeployment(t).start(t, "DNS_RESOLVER", ns.Addr)
	tn := s.signupOn("tls@example.com", "enterprise")
	d := s.addDomain(tn, "go.example.com")
	ns.set(d.Verification.Name, d.Verification.Value)
	if got := s.verifyDomain(tn, d.ID); !got.Verified {
		t.Fatalf("verify: %+v", got)
	}
	s.addDomain(tn, "pending.example.com")
	s.createLink(tn, map[string]any{"url": "https://a.example/promo", "domain": "go.example.com", "alias": "promo"})

	shipped, err := os.ReadFile("../../deploy/caddy/Caddyfile")
	if err != nil {
		t.Fatal(err)
	}
	httpPort, httpsPort := testenv.FreePort(t), testenv.FreePort(t)
	global := fmt.Sprintf("{\n\thttp_port %d\n\thttps_port %d\n\tadmin off\n\tlocal_certs\n\tskip_install_trust\n", httpPort, httpsPort)
	text := strings.Replace(string(shipped), "{\n", global, 1)
	if text == string(shipped) || !strings.Contains(text, "on_demand_tls") {
		t.Fatal("the shipped Caddyfile has no global options block to extend")
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "Caddyfile")
	if err := os.WriteFile(file, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, caddy, "run", "--config", file, "--adapter", "caddyfile")
	cmd.Env = append(os.Environ(), "HOME="+dir, "XDG_DATA_HOME="+filepath.Join(dir, "data"),
		"XDG_CONFIG_HOME="+filepath.Join(dir, "config"), "SHORTLINK_DOMAIN="+shortHost, "SHORTLINK_BACKEND="+s.app.Addr())
	var log strings.Builder
	cmd.Stdout, cmd.Stderr = &log, &log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cancel()
		_ = cmd.Wait()
		if t.Failed() {
			t.Logf("caddy's log:\n%s", log.String())
		}
	})

	// Every name reaches this Caddy: the client dials it whatever the URL's host.
	dial := func(port int) func(ctx context.Context, network, _ string) (net.Conn, error) {
		return func(ctx context.Context, network, _ string) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, network, fmt.Sprintf("127.0.0.1:%d", port))
		}
	}
	client := &http.Client{
		Timeout: 10 * time.Second,
		Transport: &http.Transport{
			DialContext:     dial(httpsPort),
			TLSClientConfig: &tls.Config{InsecureSkipVerify: true}, // Caddy's local authority; the names are checked below
		},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	get := func(host, path string) (*http.Response, error) {
		res, err := client.Get(fmt.Sprintf("https://%s:%d%s", host, httpsPort, path))
		if err == nil {
			_ = res.Body.Close()
		}
		return res, err
	}
	eventually(t, 15*time.Second, "caddy serves the service's own domain", func() bool {
		res, err := get(shortHost, "/healthz")
		return err == nil && res.StatusCode == http.StatusOK
	})
	res, err := get("go.example.com", "/promo")
	if err != nil {
		t.Fatalf("the verified domain through caddy: %v", err)
	}
	if res.StatusCode != http.StatusFound || res.Header.Get("Location") != "https://a.example/promo" {
		t.Fatalf("the verified domain's link through caddy: %d %q", res.StatusCode, res.Header.Get("Location"))
	}
	if names := res.TLS.PeerCertificates[0].DNSNames; !slices.Contains(names, "go.example.com") {
		t.Fatalf("certificate for %v, want go.example.com", names)
	}
	for _, host := range []string{"pending.example.com", "other.example.com"} {
		if res, err := get(host, "/promo"); err == nil {
			t.Errorf("%s got a certificate: %d", host, res.StatusCode)
		}
	}
	// Plain http on a custom domain goes to https.
	plain := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{DialContext: dial(httpPort)},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	pres, err := plain.Get(fmt.Sprintf("http://go.example.com:%d/promo", httpPort))
	if err != nil {
		t.Fatal(err)
	}
	_ = pres.Body.Close()
	if pres.StatusCode/100 != 3 || !strings.HasPrefix(pres.Header.Get("Location"), "https://go.example.com") {
		t.Errorf("plain http: %d %q", pres.StatusCode, pres.Header.Get("Location"))
	}
}
