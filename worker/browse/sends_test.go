package browse

import (
	"slices"
	"testing"
)

// TestSendTargets: the addresses sending calls are given, resolved against the script's base;
// every absolute address of a sending script as a host, base64 ones decoded; nothing of a script
// that sends nothing, and no call's address from another site's script.
func TestSendTargets(t *testing.T) {
	for _, tc := range []struct {
		name, script string
		direct       bool
		urls, hosts  []string
	}{
		{"fetch and XHR", `fetch("https://a.sink.test/save", {method:"POST"}); x.open("POST", "/gate.php"); $.ajax({type: "POST", url: "next.php"})`, true,
			[]string{"https://a.sink.test/save", "https://page.test/gate.php", "https://page.test/app/next.php"}, []string{"a.sink.test"}},
		{"beacon, socket, axios", "navigator.sendBeacon('/b'); new WebSocket(`wss://ws.sink.test/s`); axios.post(\"https://ax.sink.test/p\")", true,
			[]string{"https://page.test/b", "wss://ws.sink.test/s", "https://ax.sink.test/p"}, []string{"ws.sink.test", "ax.sink.test"}},
		{"a built address", `const u = "https://api.telegram.org/bot" + k + "/sendMessage"; fetch(u, {method: "POST"})`, true,
			nil, []string{"api.telegram.org"}},
		{"a hidden address", `fetch(atob("aHR0cHM6Ly9oaWRkZW4tc2luay50ZXN0L2M="))`, true,
			nil, []string{"hidden-sink.test"}},
		{"a template", "fetch(`${base}/x`)", true, nil, nil},
		{"sends nothing", `const docs = "https://docs.example.test/help"; console.log(docs)`, true, nil, nil},
		{"another site's script", `fetch("https://collect.analytics.test/e")`, false, nil, []string{"collect.analytics.test"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var st sendTargets
			st.scan(tc.script, "https://page.test/app/index.html", tc.direct)
			if !slices.Equal(st.urls, tc.urls) || !slices.Equal(st.hosts, tc.hosts) {
				t.Errorf("urls %q hosts %q, want %q and %q", st.urls, st.hosts, tc.urls, tc.hosts)
			}
		})
	}
}
