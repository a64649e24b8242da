package upstream

import (
	"context"
	"testing"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

// The scheduler drops pod updates whose resourceVersion did not change, so every write
// through the fake API server (create, update, status patch) must produce a new one.
func TestClientsetBumpsResourceVersion(t *testing.T) {
	ctx := context.Background()
	initial := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "a", Namespace: "default"}}
	cs, _, err := newClientset(initial)
	if err != nil {
		t.Fatal(err)
	}
	if initial.ResourceVersion != "" {
		t.Errorf("the caller's object was changed: resourceVersion %q", initial.ResourceVersion)
	}
	pods := cs.CoreV1().Pods("default")
	seen := map[string]string{}
	check := func(step string, p *v1.Pod) {
		t.Helper()
		if p.ResourceVersion == "" {
			t.Errorf("%s: empty resourceVersion", step)
		}
		if prev, dup := seen[p.ResourceVersion]; dup {
			t.Errorf("%s: resourceVersion %s already given by %s", step, p.ResourceVersion, prev)
		}
		seen[p.ResourceVersion] = step
		got, err := pods.Get(ctx, p.Name, metav1.GetOptions{})
		if err != nil || got.ResourceVersion != p.ResourceVersion {
			t.Errorf("%s: stored resourceVersion %q, returned %q (err %v)", step, got.GetResourceVersion(), p.ResourceVersion, err)
		}
	}
	p, err := pods.Get(ctx, "a", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	check("add", p)
	if p, err = pods.Create(ctx, &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "b"}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	check("create", p)
	p.Labels = map[string]string{"x": "y"}
	if p, err = pods.Update(ctx, p, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	check("update", p)
	patch := []byte(`{"status":{"nominatedNodeName":"node-1"}}`)
	if p, err = pods.Patch(ctx, "b", types.StrategicMergePatchType, patch, metav1.PatchOptions{}, "status"); err != nil {
		t.Fatal(err)
	}
	check("status patch", p)
	if p.Status.NominatedNodeName != "node-1" {
		t.Errorf("patch lost: %+v", p.Status)
	}
}
