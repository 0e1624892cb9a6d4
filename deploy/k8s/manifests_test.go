// Package k8s holds the Kubernetes manifests (base/, overlays/) and the tests that check them
// and docker-compose.yml without a cluster: every object is decoded strictly against its API
// type, the overlays are rendered in process with kustomize, and the settings they give the
// backend and the worker are read by the config package itself.
package k8s

import (
	"bytes"
	"context"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/compose-spec/compose-go/v2/loader"
	composetypes "github.com/compose-spec/compose-go/v2/types"
	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/validation"
	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/kyaml/filesys"
	"sigs.k8s.io/yaml"

	"github.com/shortlink/shortlink/backend/config"
	"github.com/shortlink/shortlink/backend/testenv"
)

// overlays are the deployments the repository ships; base is rendered on its own too.
var overlays = []string{"overlays/small", "overlays/large"}

// external are Secrets other components write: CloudNativePG, for the database's owner.
var external = map[string][]string{"shortlink-pg-app": {"uri"}}

// object is one rendered manifest, decoded into its API type.
type object struct {
	kind, name string
	labels     map[string]string
	obj        any
}

// decoders map apiVersion/kind to the type a manifest must decode into, field by field.
var decoders = map[string]func() any{
	"v1/ConfigMap":                           func() any { return new(corev1.ConfigMap) },
	"v1/Secret":                              func() any { return new(corev1.Secret) },
	"v1/Service":                             func() any { return new(corev1.Service) },
	"v1/PersistentVolumeClaim":               func() any { return new(corev1.PersistentVolumeClaim) },
	"apps/v1/Deployment":                     func() any { return new(appsv1.Deployment) },
	"apps/v1/StatefulSet":                    func() any { return new(appsv1.StatefulSet) },
	"batch/v1/Job":                           func() any { return new(batchv1.Job) },
	"autoscaling/v2/HorizontalPodAutoscaler": func() any { return new(autoscalingv2.HorizontalPodAutoscaler) },
	"policy/v1/PodDisruptionBudget":          func() any { return new(policyv1.PodDisruptionBudget) },
	"networking.k8s.io/v1/NetworkPolicy":     func() any { return new(networkingv1.NetworkPolicy) },
	"postgresql.cnpg.io/v1/Cluster":          func() any { return new(cnpgCluster) },
	"keda.sh/v1alpha1/ScaledObject":          func() any { return new(kedaScaledObject) },
}

// render builds a kustomization from an in-memory copy of this folder, in which each overlay's
// secrets.env is its secrets.env.example: the test sees what is committed, never local secrets.
func render(t *testing.T, dir string) []object {
	t.Helper()
	mem := filesys.MakeFsInMemory()
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasSuffix(path, ".go") || filepath.Base(path) == "secrets.env" {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if err := mem.WriteFile("/"+path, data); err != nil {
			return err
		}
		if strings.HasSuffix(path, "secrets.env.example") {
			return mem.WriteFile("/"+strings.TrimSuffix(path, ".example"), data)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	m, err := krusty.MakeKustomizer(krusty.MakeDefaultOptions()).Run(mem, "/"+dir)
	if err != nil {
		t.Fatalf("kustomize %s: %v", dir, err)
	}
	var objs []object
	for _, r := range m.Resources() {
		data, err := r.AsYAML()
		if err != nil {
			t.Fatal(err)
		}
		objs = append(objs, decode(t, dir, data))
	}
	return objs
}

// decode reads one manifest into its API type; unknown fields, unknown kinds and duplicate
// keys are errors.
func decode(t *testing.T, where string, data []byte) object {
	t.Helper()
	var head struct {
		APIVersion string            `json:"apiVersion"`
		Kind       string            `json:"kind"`
		Metadata   metav1.ObjectMeta `json:"metadata"`
	}
	if err := yaml.Unmarshal(data, &head); err != nil {
		t.Fatalf("%s: %v", where, err)
	}
	newObj := decoders[head.APIVersion+"/"+head.Kind]
	if newObj == nil {
		t.Fatalf("%s: %s %s of apiVersion %s: no API type to check it against", where, head.Kind, head.Metadata.Name, head.APIVersion)
	}
	obj := newObj()
	if err := yaml.UnmarshalStrict(data, obj); err != nil {
		t.Fatalf("%s: %s %s: %v", where, head.Kind, head.Metadata.Name, err)
	}
	for _, msg := range validation.IsDNS1123Subdomain(head.Metadata.Name) {
		t.Errorf("%s: %s %q: %s", where, head.Kind, head.Metadata.Name, msg)
	}
	return object{kind: head.Kind, name: head.Metadata.Name, labels: head.Metadata.Labels, obj: obj}
}

// cnpgCluster mirrors the fields of CloudNativePG's Cluster (postgresql.cnpg.io/v1) that the
// manifests use, with the operator's names: its Go module is too heavy to import for a test.
type cnpgCluster struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata"`
	Spec              struct {
		Instances             int    `json:"instances"`
		ImageName             string `json:"imageName"`
		PrimaryUpdateStrategy string `json:"primaryUpdateStrategy"`
		EnableSuperuserAccess *bool  `json:"enableSuperuserAccess"`
		Bootstrap             struct {
			InitDB struct {
				Database string `json:"database"`
				Owner    string `json:"owner"`
			} `json:"initdb"`
		} `json:"bootstrap"`
		PostgreSQL struct {
			Synchronous *struct {
				Method string `json:"method"`
				Number int    `json:"number"`
			} `json:"synchronous"`
			Parameters map[string]string `json:"parameters"`
		} `json:"postgresql"`
		Storage struct {
			Size         string  `json:"size"`
			StorageClass *string `json:"storageClass"`
		} `json:"storage"`
		Affinity struct {
			EnablePodAntiAffinity *bool  `json:"enablePodAntiAffinity"`
			TopologyKey           string `json:"topologyKey"`
			PodAntiAffinityType   string `json:"podAntiAffinityType"`
		} `json:"affinity"`
		Resources corev1.ResourceRequirements `json:"resources"`
	} `json:"spec"`
}

// kedaScaledObject mirrors the fields of KEDA's ScaledObject (keda.sh/v1alpha1) that the
// manifests use; KEDA's module would bring every scaler's dependencies.
type kedaScaledObject struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata"`
	Spec              struct {
		ScaleTargetRef struct {
			APIVersion string `json:"apiVersion"`
			Kind       string `json:"kind"`
			Name       string `json:"name"`
		} `json:"scaleTargetRef"`
		MinReplicaCount *int32 `json:"minReplicaCount"`
		MaxReplicaCount *int32 `json:"maxReplicaCount"`
		PollingInterval *int32 `json:"pollingInterval"`
		CooldownPeriod  *int32 `json:"cooldownPeriod"`
		Triggers        []struct {
			Type     string            `json:"type"`
			Name     string            `json:"name"`
			Metadata map[string]string `json:"metadata"`
		} `json:"triggers"`
	} `json:"spec"`
}

// set is a rendered deployment with lookups by kind and name.
type set []object

func (s set) get(kind, name string) any {
	for _, o := range s {
		// Generated ConfigMaps and Secrets carry a hash of their content after the name.
		generated := (kind == "ConfigMap" || kind == "Secret") && strings.HasPrefix(o.name, name+"-")
		if o.kind == kind && (o.name == name || generated) {
			return o.obj
		}
	}
	return nil
}

func (s set) deployment(t *testing.T, name string) *appsv1.Deployment {
	t.Helper()
	d, _ := s.get("Deployment", name).(*appsv1.Deployment)
	if d == nil {
		t.Fatalf("no Deployment %s", name)
	}
	return d
}

// TestManifests renders the base and each overlay, decodes every object strictly, and checks
// that what refers to something finds it.
func TestManifests(t *testing.T) {
	for _, dir := range append([]string{"base"}, overlays...) {
		t.Run(dir, func(t *testing.T) {
			s := set(render(t, dir))
			provided := maps.Clone(external)
			if dir == "base" {
				// The overlays generate the Secret from secrets.env.
				provided["shortlink-secrets"] = exampleSecrets(t)
			}
			checkReferences(t, s, provided)
			checkPods(t, s, dir == "base")
		})
	}
}

// stages are the label selectors of the first installation of docs/operations.md, applied in this order
// before everything else: what each applies must find everything its pods refer to.
var stages = []struct{ selector, why string }{
	{"app.kubernetes.io/component in (config, database, redis, redis-proxy)", "settings, PostgreSQL and Redis"},
	{"app.kubernetes.io/component=migrate", "the migrations"},
}

// TestStages applies docs/operations.md's selectors to each overlay: the objects the first steps
// create must not wait on objects created only later.
func TestStages(t *testing.T) {
	for _, dir := range overlays {
		t.Run(dir, func(t *testing.T) {
			all := set(render(t, dir))
			var applied set
			for _, st := range stages {
				sel, err := labels.Parse(st.selector)
				if err != nil {
					t.Fatal(err)
				}
				for _, o := range all {
					if sel.Matches(labels.Set(o.labels)) {
						applied = append(applied, o)
					}
				}
				for name, p := range podSpecs(applied) {
					checkPodReferences(t, applied, external, name, &p.Spec)
				}
				for _, o := range applied {
					if ss, ok := o.obj.(*appsv1.StatefulSet); ok && applied.get("Service", ss.Spec.ServiceName) == nil {
						t.Errorf("%s: StatefulSet %s comes before its Service %s", st.why, o.name, ss.Spec.ServiceName)
					}
				}
			}
			for _, want := range []string{"Cluster/shortlink-pg", "StatefulSet/shortlink-redis-node", "Deployment/shortlink-redis", "Service/shortlink-redis", "Job/shortlink-migrate"} {
				kind, name, _ := strings.Cut(want, "/")
				if applied.get(kind, name) == nil {
					t.Errorf("the staged selectors leave out %s", want)
				}
			}
		})
	}
}

// exampleSecrets are the keys of an overlay's secrets.env.example.
func exampleSecrets(t *testing.T) []string {
	data, err := os.ReadFile("overlays/small/secrets.env.example")
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, line := range strings.Split(string(data), "\n") {
		if k, _, ok := strings.Cut(line, "="); ok && !strings.HasPrefix(line, "#") {
			keys = append(keys, k)
		}
	}
	return keys
}

// podSpecs are the pod templates of the workloads, by kind/name.
func podSpecs(s set) map[string]*corev1.PodTemplateSpec {
	out := map[string]*corev1.PodTemplateSpec{}
	for _, o := range s {
		switch v := o.obj.(type) {
		case *appsv1.Deployment:
			out["Deployment/"+o.name] = &v.Spec.Template
		case *appsv1.StatefulSet:
			out["StatefulSet/"+o.name] = &v.Spec.Template
		case *batchv1.Job:
			out["Job/"+o.name] = &v.Spec.Template
		}
	}
	return out
}

func checkReferences(t *testing.T, s set, provided map[string][]string) {
	pods := podSpecs(s)
	selects := func(sel map[string]string) bool {
		for _, p := range pods {
			if len(sel) > 0 && labels.SelectorFromSet(sel).Matches(labels.Set(p.Labels)) {
				return true
			}
		}
		return false
	}
	for _, o := range s {
		switch v := o.obj.(type) {
		case *appsv1.Deployment:
			checkSelector(t, o, v.Spec.Selector, v.Spec.Template.Labels)
		case *appsv1.StatefulSet:
			checkSelector(t, o, v.Spec.Selector, v.Spec.Template.Labels)
			if s.get("Service", v.Spec.ServiceName) == nil {
				t.Errorf("StatefulSet %s: no Service %s", o.name, v.Spec.ServiceName)
			}
		case *corev1.Service:
			if !selects(v.Spec.Selector) {
				t.Errorf("Service %s selects no pods", o.name)
			}
		case *policyv1.PodDisruptionBudget:
			sel, err := metav1.LabelSelectorAsMap(v.Spec.Selector)
			if err != nil || !selects(sel) {
				t.Errorf("PodDisruptionBudget %s selects no pods", o.name)
			}
		case *networkingv1.NetworkPolicy:
			sel, err := metav1.LabelSelectorAsMap(&v.Spec.PodSelector)
			if err != nil || !selects(sel) {
				t.Errorf("NetworkPolicy %s selects no pods", o.name)
			}
		case *autoscalingv2.HorizontalPodAutoscaler:
			ref := v.Spec.ScaleTargetRef
			if s.get(ref.Kind, ref.Name) == nil {
				t.Errorf("HorizontalPodAutoscaler %s: no %s %s", o.name, ref.Kind, ref.Name)
			}
			if v.Spec.MinReplicas == nil || *v.Spec.MinReplicas < 2 || v.Spec.MaxReplicas < *v.Spec.MinReplicas {
				t.Errorf("HorizontalPodAutoscaler %s: replicas %v–%d", o.name, v.Spec.MinReplicas, v.Spec.MaxReplicas)
			}
			if d, _ := s.get(ref.Kind, ref.Name).(*appsv1.Deployment); d != nil && d.Spec.Replicas != nil {
				t.Errorf("Deployment %s sets replicas: every apply would undo its autoscaler", ref.Name)
			}
		case *kedaScaledObject:
			checkScaledObject(t, s, o.name, v)
		case *cnpgCluster:
			checkCluster(t, o.name, v)
		}
	}
	for name, p := range pods {
		checkPodReferences(t, s, provided, name, &p.Spec)
	}
}

func checkSelector(t *testing.T, o object, sel *metav1.LabelSelector, podLabels map[string]string) {
	m, err := metav1.LabelSelectorAsSelector(sel)
	if err != nil || m.Empty() || !m.Matches(labels.Set(podLabels)) {
		t.Errorf("%s %s: its selector does not match its pods' labels", o.kind, o.name)
	}
}

// checkPodReferences: every ConfigMap, Secret, key and claim a pod names exists, and every
// named probe port is a port of the container.
func checkPodReferences(t *testing.T, s set, provided map[string][]string, pod string, spec *corev1.PodSpec) {
	hasKey := func(kind, name, key string) bool {
		if keys, ok := provided[name]; ok && kind == "Secret" {
			return key == "" || slices.Contains(keys, key)
		}
		switch v := s.get(kind, name).(type) {
		case *corev1.ConfigMap:
			_, ok := v.Data[key]
			return ok || key == ""
		case *corev1.Secret:
			_, ok := v.Data[key]
			_, ok2 := v.StringData[key]
			return ok || ok2 || key == ""
		}
		return false
	}
	for _, v := range spec.Volumes {
		switch {
		case v.ConfigMap != nil && !hasKey("ConfigMap", v.ConfigMap.Name, ""):
			t.Errorf("%s: volume %s: no ConfigMap %s", pod, v.Name, v.ConfigMap.Name)
		case v.PersistentVolumeClaim != nil && s.get("PersistentVolumeClaim", v.PersistentVolumeClaim.ClaimName) == nil:
			t.Errorf("%s: volume %s: no PersistentVolumeClaim %s", pod, v.Name, v.PersistentVolumeClaim.ClaimName)
		}
	}
	for _, c := range append(slices.Clone(spec.InitContainers), spec.Containers...) {
		for _, e := range c.EnvFrom {
			if e.ConfigMapRef != nil && !hasKey("ConfigMap", e.ConfigMapRef.Name, "") {
				t.Errorf("%s/%s: no ConfigMap %s", pod, c.Name, e.ConfigMapRef.Name)
			}
			if e.SecretRef != nil && !hasKey("Secret", e.SecretRef.Name, "") {
				t.Errorf("%s/%s: no Secret %s", pod, c.Name, e.SecretRef.Name)
			}
		}
		for _, e := range c.Env {
			if f := e.ValueFrom; f != nil {
				if f.SecretKeyRef != nil && !hasKey("Secret", f.SecretKeyRef.Name, f.SecretKeyRef.Key) {
					t.Errorf("%s/%s: %s: no key %s in Secret %s", pod, c.Name, e.Name, f.SecretKeyRef.Key, f.SecretKeyRef.Name)
				}
				if f.ConfigMapKeyRef != nil && !hasKey("ConfigMap", f.ConfigMapKeyRef.Name, f.ConfigMapKeyRef.Key) {
					t.Errorf("%s/%s: %s: no key %s in ConfigMap %s", pod, c.Name, e.Name, f.ConfigMapKeyRef.Key, f.ConfigMapKeyRef.Name)
				}
			}
		}
		ports := map[string]bool{}
		for _, p := range c.Ports {
			ports[p.Name] = true
			for _, msg := range validation.IsValidPortName(p.Name) {
				t.Errorf("%s/%s: port %q: %s", pod, c.Name, p.Name, msg)
			}
		}
		for _, pr := range []*corev1.Probe{c.ReadinessProbe, c.LivenessProbe, c.StartupProbe} {
			if pr == nil {
				continue
			}
			var port string
			switch {
			case pr.HTTPGet != nil:
				port = pr.HTTPGet.Port.StrVal
			case pr.TCPSocket != nil:
				port = pr.TCPSocket.Port.StrVal
			}
			if port != "" && !ports[port] {
				t.Errorf("%s/%s: a probe names port %q, which the container does not have", pod, c.Name, port)
			}
		}
		for _, m := range c.VolumeMounts {
			if !slices.ContainsFunc(spec.Volumes, func(v corev1.Volume) bool { return v.Name == m.Name }) &&
				!strings.HasPrefix(pod, "StatefulSet/") {
				t.Errorf("%s/%s: mount of unknown volume %s", pod, c.Name, m.Name)
			}
		}
	}
}

// checkPods: every container has requests and limits and a pinned image; the backend is
// probed where the brief says and outlives its own drain.
func checkPods(t *testing.T, s set, base bool) {
	for name, p := range podSpecs(s) {
		for _, c := range p.Spec.Containers {
			if c.Resources.Requests.Cpu().IsZero() || c.Resources.Requests.Memory().IsZero() || c.Resources.Limits.Memory().IsZero() {
				t.Errorf("%s/%s: needs CPU and memory requests and a memory limit", name, c.Name)
			}
			ours := strings.HasPrefix(c.Image, "ghcr.io/shortlink/")
			if _, tag, _ := strings.Cut(c.Image, ":"); (tag == "" || tag == "latest") && !(ours && base) {
				// The base leaves the tag of Shortlink's own images to the overlays.
				t.Errorf("%s/%s: image %q has no pinned tag", name, c.Name, c.Image)
			}
		}
	}
	d := s.deployment(t, "shortlink-backend")
	spec := d.Spec.Template.Spec
	c := spec.Containers[0]
	if c.ReadinessProbe == nil || c.ReadinessProbe.HTTPGet == nil || c.ReadinessProbe.HTTPGet.Path != "/readyz" {
		t.Error("backend: readiness must be GET /readyz")
	}
	if c.LivenessProbe == nil || c.LivenessProbe.HTTPGet == nil || c.LivenessProbe.HTTPGet.Path != "/healthz" {
		t.Error("backend: liveness must be GET /healthz")
	}
	cm := configMap(t, s)
	shutdown, err := time.ParseDuration(cm["SHUTDOWN_TIMEOUT"])
	if err != nil {
		t.Fatalf("SHUTDOWN_TIMEOUT: %v", err)
	}
	var pause time.Duration
	if c.Lifecycle != nil && c.Lifecycle.PreStop != nil && c.Lifecycle.PreStop.Sleep != nil {
		pause = time.Duration(c.Lifecycle.PreStop.Sleep.Seconds) * time.Second
	}
	if pause == 0 {
		t.Error("backend: no preStop pause: the pod would get SIGTERM while it is still in the Service's endpoints")
	}
	var grace time.Duration
	if spec.TerminationGracePeriodSeconds != nil {
		grace = time.Duration(*spec.TerminationGracePeriodSeconds) * time.Second
	}
	if grace <= pause+shutdown {
		t.Errorf("backend: terminationGracePeriodSeconds (%v) must exceed the preStop pause %v plus SHUTDOWN_TIMEOUT %v",
			grace, pause, shutdown)
	}
	// The Go heap's soft limit below the container's limit, and no more argon2id hashes at once
	// than the pod has CPUs.
	limit := c.Resources.Limits.Memory()
	for _, e := range c.Env {
		if e.Name == "GOMEMLIMIT" {
			q, err := resource.ParseQuantity(strings.TrimSuffix(e.Value, "B"))
			if err != nil || q.Cmp(*limit) >= 0 {
				t.Errorf("backend: GOMEMLIMIT %s must be below the memory limit %s", e.Value, limit)
			}
		}
	}
	if n, err := strconv.Atoi(cm["PASSWORD_HASH_CONCURRENCY"]); err != nil || int64(n) > c.Resources.Limits.Cpu().Value() {
		t.Errorf("PASSWORD_HASH_CONCURRENCY %q must be at most the backend's CPU limit %s", cm["PASSWORD_HASH_CONCURRENCY"], c.Resources.Limits.Cpu())
	}
	// Caddy asks a Service that exists, on a port it has.
	checkCaddy(t, s)
}

func checkScaledObject(t *testing.T, s set, name string, so *kedaScaledObject) {
	if s.get("Deployment", so.Spec.ScaleTargetRef.Name) == nil {
		t.Errorf("ScaledObject %s: no Deployment %s", name, so.Spec.ScaleTargetRef.Name)
	}
	if so.Spec.MinReplicaCount == nil || *so.Spec.MinReplicaCount < 1 {
		t.Errorf("ScaledObject %s: at least one worker must run (it finds new links and reports the depth)", name)
	}
	if so.Spec.MaxReplicaCount == nil || *so.Spec.MaxReplicaCount < *so.Spec.MinReplicaCount {
		t.Errorf("ScaledObject %s: maxReplicaCount", name)
	}
	if len(so.Spec.Triggers) != 1 || so.Spec.Triggers[0].Type != "prometheus" {
		t.Fatalf("ScaledObject %s: want one prometheus trigger", name)
	}
	md := so.Spec.Triggers[0].Metadata
	if !strings.Contains(md["query"], "shortlink_moderation_queue_due") || md["serverAddress"] == "" {
		t.Errorf("ScaledObject %s: the trigger must read shortlink_moderation_queue_due from a Prometheus", name)
	}
	if v, err := strconv.ParseFloat(md["threshold"], 64); err != nil || v <= 0 {
		t.Errorf("ScaledObject %s: threshold %q", name, md["threshold"])
	}
}

func checkCluster(t *testing.T, name string, c *cnpgCluster) {
	sp := c.Spec
	if sp.Instances != 3 {
		t.Errorf("Cluster %s: %d instances, want 3", name, sp.Instances)
	}
	if sp.Bootstrap.InitDB.Database == "" || sp.Bootstrap.InitDB.Owner == "" {
		t.Errorf("Cluster %s: bootstrap.initdb needs database and owner", name)
	}
	if sy := sp.PostgreSQL.Synchronous; sy == nil || (sy.Method != "any" && sy.Method != "first") || sy.Number < 1 || sy.Number >= sp.Instances {
		t.Errorf("Cluster %s: synchronous replication must be on (method any or first, number 1..instances-1)", name)
	}
	if !slices.Contains([]string{"unsupervised", "supervised"}, sp.PrimaryUpdateStrategy) ||
		!slices.Contains([]string{"required", "preferred"}, sp.Affinity.PodAntiAffinityType) {
		t.Errorf("Cluster %s: primaryUpdateStrategy or podAntiAffinityType out of range", name)
	}
	if _, err := resource.ParseQuantity(sp.Storage.Size); err != nil {
		t.Errorf("Cluster %s: storage.size: %v", name, err)
	}
	if _, err := strconv.Atoi(sp.PostgreSQL.Parameters["max_connections"]); err != nil {
		t.Errorf("Cluster %s: max_connections: %v", name, err)
	}
}

// askRe finds the on_demand_tls ask endpoint in the Caddyfile.
var askRe = regexp.MustCompile(`(?m)^\s*ask\s+http://([a-z0-9-]+):(\d+)(/\S*)`)

func checkCaddy(t *testing.T, s set) {
	cm, _ := s.get("ConfigMap", "caddy-config").(*corev1.ConfigMap)
	if cm == nil {
		t.Fatal("no ConfigMap caddy-config")
	}
	file := cm.Data["Caddyfile"]
	m := askRe.FindStringSubmatch(file)
	if m == nil || m[3] != "/tls/ask" {
		t.Fatalf("Caddyfile: no `ask http://<service>:<port>/tls/ask`")
	}
	svc, _ := s.get("Service", m[1]).(*corev1.Service)
	if svc == nil || !slices.ContainsFunc(svc.Spec.Ports, func(p corev1.ServicePort) bool { return strconv.Itoa(int(p.Port)) == m[2] }) {
		t.Errorf("Caddyfile asks %s:%s, which no Service answers", m[1], m[2])
	}
	if strings.Count(file, "reverse_proxy "+m[1]+":"+m[2]) != 2 {
		t.Errorf("Caddyfile: both sites must proxy to %s:%s", m[1], m[2])
	}
	caddy := s.deployment(t, "caddy")
	vol := slices.IndexFunc(caddy.Spec.Template.Spec.Volumes, func(v corev1.Volume) bool { return v.PersistentVolumeClaim != nil })
	if vol < 0 || !slices.ContainsFunc(caddy.Spec.Template.Spec.Containers[0].VolumeMounts, func(m corev1.VolumeMount) bool {
		return m.Name == caddy.Spec.Template.Spec.Volumes[vol].Name && m.MountPath == "/data"
	}) {
		t.Error("caddy: certificates (/data) must be on a persistent volume")
	}
	pvc, _ := s.get("PersistentVolumeClaim", "caddy-data").(*corev1.PersistentVolumeClaim)
	if caddy.Spec.Replicas != nil && *caddy.Spec.Replicas > 1 && (pvc == nil || !slices.Contains(pvc.Spec.AccessModes, corev1.ReadWriteMany)) {
		t.Error("caddy: several replicas must share a ReadWriteMany volume")
	}
	// caddy validate, where Caddy is installed.
	if _, err := exec.LookPath("caddy"); err != nil {
		t.Log("caddy not installed: the Caddyfile's syntax is not checked")
		return
	}
	f := filepath.Join(t.TempDir(), "Caddyfile")
	if err := os.WriteFile(f, []byte(file), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("caddy", "validate", "--config", f, "--adapter", "caddyfile")
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir(), "XDG_DATA_HOME="+t.TempDir(), "XDG_CONFIG_HOME="+t.TempDir())
	for _, e := range caddy.Spec.Template.Spec.Containers[0].Env {
		cmd.Env = append(cmd.Env, e.Name+"="+e.Value)
	}
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("caddy validate: %v\n%s", err, out)
	}
}

// configMap is the rendered shortlink-config.
func configMap(t *testing.T, s set) map[string]string {
	cm, _ := s.get("ConfigMap", "shortlink-config").(*corev1.ConfigMap)
	if cm == nil {
		t.Fatal("no ConfigMap shortlink-config")
	}
	return cm.Data
}

// envTags are the variables a config struct reads.
func envTags(v any) []string {
	var names []string
	typ := reflect.TypeOf(v)
	for i := range typ.NumField() {
		name, _, _ := strings.Cut(typ.Field(i).Tag.Get("env"), ",")
		if name != "" && name != "-" {
			names = append(names, name)
		}
	}
	return names
}

// readmeVariables are the variables of the manual's configuration tables: the server's
// (docs/configuration.md) and the worker's (docs/moderation.md).
func readmeVariables(t *testing.T) []string {
	var data []byte
	for _, f := range []string{"../../docs/configuration.md", "../../docs/moderation.md"} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		data = append(data, b...)
	}
	var names []string
	row := regexp.MustCompile("(?m)^\\| (`[A-Z][A-Z0-9_]+`(?:, `[A-Z][A-Z0-9_]+`)*) \\|")
	for _, m := range row.FindAllStringSubmatch(string(data), -1) {
		for _, n := range strings.Split(m[1], ", ") {
			names = append(names, strings.Trim(n, "`"))
		}
	}
	if len(names) < 50 {
		t.Fatalf("docs: found only %d variables in the configuration tables", len(names))
	}
	return names
}

// refRe is a $(VAR) reference in a container's env.
var refRe = regexp.MustCompile(`\$\([A-Za-z_][A-Za-z0-9_]*\)`)

// containerEnv is the environment a container starts with, as the kubelet builds it: envFrom
// first, then env, with $(VAR) references expanded. Secrets come from the overlay's
// secrets.env.example, with the placeholders replaced by values when valid is set.
func containerEnv(t *testing.T, s set, c corev1.Container, valid bool) map[string]string {
	env := map[string]string{}
	for _, e := range c.EnvFrom {
		switch {
		case e.ConfigMapRef != nil:
			cm, _ := s.get("ConfigMap", e.ConfigMapRef.Name).(*corev1.ConfigMap)
			for k, v := range cm.Data {
				env[k] = v
			}
		case e.SecretRef != nil:
			sec, _ := s.get("Secret", e.SecretRef.Name).(*corev1.Secret)
			for k, v := range sec.Data {
				env[k] = string(v)
			}
		}
	}
	filled := map[string]string{
		"JWT_SECRET":     strings.Repeat("ab", 32),
		"CODE_KEY":       strings.Repeat("0f", 32),
		"CODE_TWEAK":     "00010203040506",
		"REDIS_PASSWORD": strings.Repeat("cd", 32),
	}
	if valid {
		for k, v := range filled {
			env[k] = v
		}
	}
	for _, e := range c.Env {
		v := e.Value
		if f := e.ValueFrom; f != nil {
			switch {
			case f.SecretKeyRef != nil && f.SecretKeyRef.Name == "shortlink-pg-app":
				v = "postgresql://shortlink:secret@shortlink-pg-rw.shortlink:5432/shortlink"
			case f.FieldRef != nil:
				v = "shortlink-backend-7d9f8-abcde"
			case f.SecretKeyRef != nil:
				v = env[f.SecretKeyRef.Key]
			}
		}
		env[e.Name] = refRe.ReplaceAllStringFunc(v, func(ref string) string {
			return env[ref[2:len(ref)-1]]
		})
	}
	return env
}

// TestSettings: every setting of the manual and of the config package has a place in each
// overlay (the ConfigMap, the Secret or the container's own env), nothing unknown is set, and
// the backend's and the worker's config packages accept what the pods get — and refuse the
// example secrets' placeholders.
func TestSettings(t *testing.T) {
	server := envTags(config.Config{})
	worker := envTags(config.Worker{})
	known := slices.Concat(server, worker)
	readme := readmeVariables(t)
	for _, dir := range overlays {
		t.Run(dir, func(t *testing.T) {
			s := set(render(t, dir))
			backend := s.deployment(t, "shortlink-backend").Spec.Template.Spec.Containers[0]
			wk := s.deployment(t, "shortlink-worker").Spec.Template.Spec.Containers[0]
			benv := containerEnv(t, s, backend, true)
			wenv := containerEnv(t, s, wk, true)
			for _, n := range slices.Concat(server, readme) {
				if _, ok := benv[n]; !ok && !slices.Contains(worker, n) {
					t.Errorf("the backend's pods do not set %s", n)
				}
			}
			for _, n := range worker {
				if _, ok := wenv[n]; !ok {
					t.Errorf("the worker's pods do not set %s", n)
				}
			}
			for k := range configMap(t, s) {
				if !slices.Contains(known, k) {
					t.Errorf("ConfigMap shortlink-config sets %s, which nothing reads", k)
				}
			}
			sec, _ := s.get("Secret", "shortlink-secrets").(*corev1.Secret)
			if sec == nil {
				t.Fatal("no Secret shortlink-secrets")
			}
			for k := range sec.Data {
				if !slices.Contains(known, k) && k != "REDIS_PASSWORD" {
					t.Errorf("Secret shortlink-secrets holds %s, which nothing reads", k)
				}
			}
			for _, k := range []string{"JWT_SECRET", "CODE_KEY", "CODE_TWEAK", "OPERATOR_PASSWORD", "SMTP_URL", "OPENAI_API_KEY", "REDIS_PASSWORD"} {
				if _, ok := sec.Data[k]; !ok {
					t.Errorf("Secret shortlink-secrets lacks %s", k)
				}
			}
			if _, err := config.FromMap(benv); err != nil {
				t.Errorf("the backend would refuse its settings: %v", err)
			}
			if _, err := config.WorkerFromMap(wenv); err != nil {
				t.Errorf("the worker would refuse its settings: %v", err)
			}
			if _, err := config.FromMap(containerEnv(t, s, backend, false)); err == nil ||
				!strings.Contains(err.Error(), "JWT_SECRET") || !strings.Contains(err.Error(), "CODE_KEY") {
				t.Errorf("the example secrets' placeholders must be refused at start-up, got %v", err)
			}
			for name, env := range map[string]map[string]string{"backend": benv, "worker": wenv} {
				host, maxConns, err := testenv.PoolOf(env["DATABASE_URL"])
				if err != nil || maxConns != 16 || host != "shortlink-pg-rw.shortlink" {
					t.Errorf("%s: DATABASE_URL %q: want CloudNativePG's uri with a pool of 16 (%v)", name, env["DATABASE_URL"], err)
				}
			}
			if !strings.HasPrefix(benv["REDIS_URL"], "redis://:"+strings.Repeat("cd", 32)+"@shortlink-redis:6379/") {
				t.Errorf("REDIS_URL %q does not carry REDIS_PASSWORD to the Service shortlink-redis", benv["REDIS_URL"])
			}
		})
	}
}

// TestScripts checks the syntax of the Redis start scripts, and HAProxy's configuration where
// HAProxy is installed.
func TestScripts(t *testing.T) {
	for _, f := range []string{"base/redis/redis.sh", "base/redis/sentinel.sh"} {
		if out, err := exec.Command("sh", "-n", f).CombinedOutput(); err != nil {
			t.Errorf("%s: %v\n%s", f, err, out)
		}
	}
	if _, err := exec.LookPath("haproxy"); err != nil {
		t.Log("haproxy not installed: base/redis/haproxy.cfg is not checked")
		return
	}
	cmd := exec.Command("haproxy", "-c", "-f", "base/redis/haproxy.cfg")
	cmd.Env = append(os.Environ(), "REDIS_PASSWORD=secret", "NAMESPACE=shortlink", "CLUSTER_DOMAIN=cluster.local")
	out, err := cmd.CombinedOutput()
	if err != nil || bytes.Contains(out, []byte("WARNING")) {
		t.Errorf("haproxy -c: %v\n%s", err, out)
	}
}

// TestCompose loads docker-compose.yml as Docker Compose does (the Compose specification's
// schema: unknown fields are errors) and checks that the server and the worker would accept
// the settings it gives them.
func TestCompose(t *testing.T) {
	data, err := os.ReadFile("../../docker-compose.yml")
	if err != nil {
		t.Fatal(err)
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	p, err := loader.LoadWithContext(context.Background(), composetypes.ConfigDetails{
		WorkingDir:  root,
		ConfigFiles: []composetypes.ConfigFile{{Filename: filepath.Join(root, "docker-compose.yml"), Content: data}},
		Environment: composetypes.Mapping{},
	}, func(o *loader.Options) { o.SetProjectName("shortlink", true) })
	if err != nil {
		t.Fatalf("docker-compose.yml: %v", err)
	}
	env := func(name string) map[string]string {
		svc, ok := p.Services[name]
		if !ok {
			t.Fatalf("docker-compose.yml: no service %s", name)
		}
		m := map[string]string{}
		for k, v := range svc.Environment {
			if v != nil {
				m[k] = *v
			}
		}
		return m
	}
	known := slices.Concat(envTags(config.Config{}), envTags(config.Worker{}))
	for _, name := range []string{"migrate", "backend", "worker"} {
		for k := range env(name) {
			if !slices.Contains(known, k) {
				t.Errorf("docker-compose.yml: service %s sets %s, which nothing reads", name, k)
			}
		}
		svc := p.Services[name]
		if svc.Build == nil || svc.Build.Dockerfile != "deploy/docker/Dockerfile" {
			t.Errorf("docker-compose.yml: service %s is not built from deploy/docker/Dockerfile", name)
		}
		if _, err := os.Stat(filepath.Join(root, "deploy/docker/Dockerfile")); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := config.FromMap(env("backend")); err != nil {
		t.Errorf("docker-compose.yml: the backend would refuse its settings: %v", err)
	}
	if _, err := config.WorkerFromMap(env("worker")); err != nil {
		t.Errorf("docker-compose.yml: the worker would refuse its settings: %v", err)
	}
	// The worker needs Chromium and the Playwright driver: the Dockerfile's worker stage.
	if b := p.Services["worker"].Build; b == nil || b.Target != "worker" {
		t.Error("docker-compose.yml: the worker must be built from the Dockerfile's worker stage")
	}
	dockerfile, err := os.ReadFile(filepath.Join(root, "deploy/docker/Dockerfile"))
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`(?m)^FROM \S+ AS worker$`).Match(dockerfile) {
		t.Error("deploy/docker/Dockerfile has no stage worker")
	}
}
