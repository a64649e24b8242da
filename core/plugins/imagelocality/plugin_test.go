package imagelocality

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/framework"
	"github.com/schedplay/schedplay/core/internal/st"
)

type image struct {
	sizeMB int64
	names  []string
}

func img(sizeMB int64, names ...string) image { return image{sizeMB, names} }

func makeNode(name string, images ...image) *api.Node {
	n := st.MakeNode().Name(name)
	for _, i := range images {
		n.Image(i.sizeMB*mb, i.names...)
	}
	return n.Obj()
}

func makePod(initImages []string, images ...string) *api.Pod {
	p := st.MakePod().Name("p").Obj()
	p.Spec.Containers = nil
	for _, i := range images {
		p.Spec.Containers = append(p.Spec.Containers, api.Container{Name: i, Image: i})
	}
	for _, i := range initImages {
		p.Spec.InitContainers = append(p.Spec.InitContainers, api.Container{Name: i, Image: i})
	}
	return p
}

func TestScore(t *testing.T) {
	node403002000 := []image{
		img(40, "gcr.io/40:latest", "gcr.io/40:v1", "gcr.io/40:v1"),
		img(300, "gcr.io/300:latest", "gcr.io/300:v1"),
		img(2000, "gcr.io/2000:latest"),
	}
	node25010 := []image{img(250, "gcr.io/250:latest"), img(10, "gcr.io/10:latest", "gcr.io/10:v1")}
	node60040900 := []image{img(600, "gcr.io/600:latest"), img(40, "gcr.io/40:latest"), img(900, "gcr.io/900:latest")}
	node300600900 := []image{img(300, "gcr.io/300:latest"), img(600, "gcr.io/600:latest"), img(900, "gcr.io/900:latest")}
	node400030 := []image{img(4000, "gcr.io/4000:latest"), img(30, "gcr.io/30:latest")}
	node203040 := []image{img(20, "gcr.io/20:latest"), img(30, "gcr.io/30:latest"), img(40, "gcr.io/40:latest")}

	tests := []struct {
		name  string
		pod   *api.Pod
		nodes []*api.Node
		want  framework.NodeScoreList
	}{
		{
			// node1: 40M/2 < 23M -> 0; node2: 100*(250M/2-23M)/(2000M-23M) = 5
			name:  "two images spread on two nodes, larger one wins",
			pod:   makePod(nil, "gcr.io/40", "gcr.io/250"),
			nodes: []*api.Node{makeNode("node1", node403002000...), makeNode("node2", node25010...)},
			want:  framework.NodeScoreList{{Name: "node1", Score: 0}, {Name: "node2", Score: 5}},
		},
		{
			// node1: 100*((40M+300M)/2-23M)/(2000M-23M) = 7
			name:  "two images on one node",
			pod:   makePod(nil, "gcr.io/40", "gcr.io/300"),
			nodes: []*api.Node{makeNode("node1", node403002000...), makeNode("node2", node25010...)},
			want:  framework.NodeScoreList{{Name: "node1", Score: 7}, {Name: "node2", Score: 0}},
		},
		{
			name:  "sum above the max threshold is clamped",
			pod:   makePod(nil, "gcr.io/10", "gcr.io/4000"),
			nodes: []*api.Node{makeNode("node1", node400030...), makeNode("node2", node25010...)},
			want:  framework.NodeScoreList{{Name: "node1", Score: 100}, {Name: "node2", Score: 0}},
		},
		{
			// node1: 100*(4000M/3-23M)/(2000M-23M) = 66: a node without images still counts in the spread
			name:  "spread counts nodes without images",
			pod:   makePod(nil, "gcr.io/10", "gcr.io/4000"),
			nodes: []*api.Node{makeNode("node1", node400030...), makeNode("node2", node25010...), makeNode("node3")},
			want:  framework.NodeScoreList{{Name: "node1", Score: 66}, {Name: "node2", Score: 0}, {Name: "node3", Score: 0}},
		},
		{
			name:  "several large images",
			pod:   makePod(nil, "gcr.io/300", "gcr.io/600", "gcr.io/900"),
			nodes: []*api.Node{makeNode("node1", node60040900...), makeNode("node2", node300600900...), makeNode("node3")},
			want:  framework.NodeScoreList{{Name: "node1", Score: 32}, {Name: "node2", Score: 36}, {Name: "node3", Score: 0}},
		},
		{
			// node1: 100*(30M + 40M/2 - 23M)/(2000M-23M) = 1
			name:  "several small images",
			pod:   makePod(nil, "gcr.io/30", "gcr.io/40"),
			nodes: []*api.Node{makeNode("node1", node203040...), makeNode("node2", node400030...)},
			want:  framework.NodeScoreList{{Name: "node1", Score: 1}, {Name: "node2", Score: 0}},
		},
		{
			// node1: 100*(300M/2-23M)/(2000M-23M) = 6
			name:  "init container images count, and count as containers",
			pod:   makePod([]string{"gcr.io/300"}, "gcr.io/30"),
			nodes: []*api.Node{makeNode("node1", node403002000...), makeNode("node2", node203040...)},
			want:  framework.NodeScoreList{{Name: "node1", Score: 6}, {Name: "node2", Score: 0}},
		},
		{
			// the same image twice is summed twice: 2*300M*1/1 = 600M; 100*(600M-23M)/(2000M-23M) = 29
			name:  "an image used by two containers counts twice",
			pod:   makePod(nil, "gcr.io/300", "gcr.io/300:latest"),
			nodes: []*api.Node{makeNode("node1", node300600900...)},
			want:  framework.NodeScoreList{{Name: "node1", Score: 29}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := st.NewHandle(nil, tt.nodes)
			p, err := New(nil, h)
			if err != nil {
				t.Fatalf("creating plugin: %v", err)
			}
			pl := p.(*ImageLocality)
			// Score and ScoreNodes must agree on every case.
			raw, batch, err := st.ScoreBothWays(pl, framework.NewCycleState(), tt.pod, h.Snapshot.List())
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(raw, batch); diff != "" {
				t.Errorf("ScoreNodes differs from Score (-Score +ScoreNodes):\n%s", diff)
			}
			var got framework.NodeScoreList
			for i, ni := range h.Snapshot.List() {
				got = append(got, framework.NodeScore{Name: ni.Node().Name, Score: raw[i]})
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("scores (-want +got):\n%s", diff)
			}
		})
	}
}

func TestNormalizedImageName(t *testing.T) {
	digest := "sha256:" + "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
	tests := []struct {
		name, in, want string
	}{
		{name: "untagged", in: "root", want: "root:latest"},
		{name: "registry port is not a tag", in: "gcr.io:5000/root", want: "gcr.io:5000/root:latest"},
		{name: "tagged", in: "root:tag", want: "root:tag"},
		{name: "digest", in: "root@" + digest, want: "root@" + digest},
		{name: "untagged name longer than the lookup buffer", in: "registry.example/" + digest[7:] + "/" + digest[7:], want: "registry.example/" + digest[7:] + "/" + digest[7:] + ":latest"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := normalizedImageName(tt.in); got != tt.want {
				t.Errorf("normalizedImageName(%q) = %q, want %q", tt.in, got, tt.want)
			}
			// The allocation-free lookup must find exactly the normalized name.
			want := &framework.ImageStateSummary{Size: 1}
			states := map[string]*framework.ImageStateSummary{tt.want: want, tt.in + "-other": {Size: 2}}
			var buf [128]byte
			if got, ok := lookupImage(states, tt.in, buf[:0]); !ok || got != want {
				t.Errorf("lookupImage(%q) = %v, %v; want the state under %q", tt.in, got, ok, tt.want)
			}
			delete(states, tt.want)
			if got, ok := lookupImage(states, tt.in, buf[:0]); ok {
				t.Errorf("lookupImage(%q) without %q = %v, want none", tt.in, tt.want, got)
			}
		})
	}
}
