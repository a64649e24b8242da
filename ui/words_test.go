package ui_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/schedplay/schedplay/ui"
)

func parsed(t *testing.T, m map[string]string) ui.Words {
	t.Helper()
	data, _ := json.Marshal(m)
	w, err := ui.ParseWords(string(data))
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// TestEnglishWordsAreTheCatalog: ui.English, which the CLI and the native
// tests draw with, is the English catalog's canvas.* words, one for one.
func TestEnglishWordsAreTheCatalog(t *testing.T) {
	cat := ui.CanvasMessages(t, "en")
	v := reflect.ValueOf(ui.English)
	for i := range v.NumField() {
		name := v.Type().Field(i).Tag.Get("json")
		if cat[name] != v.Field(i).String() {
			t.Errorf("canvas.%s: embed/en.json says %q, ui.English %q", name, cat[name], v.Field(i).String())
		}
		delete(cat, name)
	}
	for name := range cat {
		t.Errorf("embed/en.json has canvas.%s, a word ui.Words lacks", name)
	}
}

// drawn is what the canvas's text functions give for a few scenes in
// words w: the lines the drawing code hands to the fonts.
func drawn(w *ui.Words) map[string]string {
	pod := ui.Pod{Namespace: "default", Name: "p", Priority: 100, Requests: ui.Resources{MilliCPU: 500, Memory: 1 << 30}}
	pending := pod
	pending.Queue, pending.NominatedNode = ui.QueueUnschedulable, "node-b"
	backoff := pod
	backoff.Queue, backoff.BackoffUntil = ui.QueueBackoff, 12
	victim := pod
	victim.Node = "node-a"
	victim.Termination = &ui.Termination{Stage: "preStop", Next: "SIGTERM", StageEnds: 10, Ends: 30}
	evicted := victim
	evicted.Termination = &ui.Termination{Stage: "SIGTERM", Next: "gone", StageEnds: 30, Ends: 30, Eviction: true}
	node := ui.Node{Name: "node-a", Zone: "zone-a", Unschedulable: true, Taints: []ui.Taint{{Key: "k", Effect: "NoSchedule"}},
		Allocatable: ui.Resources{MilliCPU: 4000, Memory: 8 << 30, Pods: 110}}
	search := &ui.SearchView{Start: "node-a", StoppedOn: "node-b"}
	_, cleared, _ := ui.ClearedNomination(&ui.SceneEvent{Kind: "NominationCleared", Pod: "default/mid", Node: "node-b"}, w)
	pt := func(p ui.Pod, now float64) string { return strings.Join(ui.PodTooltip(&p, now, w), "\n") }
	return map[string]string{
		"caption":      ui.CaptionAt(&ui.Scene{}, 1, w),
		"nothing":      ui.CaptionAt(&ui.Scene{}, 0, w),
		"queue empty":  ui.QueueTitle(w, 0),
		"queue 3":      ui.QueueTitle(w, 3),
		"no zone":      ui.ZoneTitle(w, "", "topology.kubernetes.io/zone"),
		"legend":       strings.Join(ui.LegendLabels(w, ui.Legend([]ui.PriorityClass{{Name: "high", Value: 1000}})), ", "),
		"search start": ui.SearchLabel(w, search, "node-a"),
		"search stop":  ui.SearchLabel(w, search, "node-b"),
		"spread":       ui.SpreadDomain{Name: "zone-a", Count: 3, Skew: 1}.Label(w),
		"cleared":      cleared,
		"pod pending":  pt(pending, 0),
		"pod backoff":  pt(backoff, 10),
		"pod victim":   pt(victim, 4),
		"pod evicted":  pt(evicted, 20),
		"chip evicted": ui.ChipSideText(&evicted, false, 20, w),
		"queue left":   ui.QueueLeft(w, ui.QueueBackoff, 2),
		"node":         strings.Join(ui.NodeTooltip(&node, w), "\n"),
	}
}

// expected is what drawn must give in the language of catalog words:
// its messages with the same values filled in.
func expected(words map[string]string) map[string]string {
	f := func(name string, kv ...string) string {
		m := words[name]
		for i := 0; i+1 < len(kv); i += 2 {
			m = strings.ReplaceAll(m, "{"+kv[i]+"}", kv[i+1])
		}
		return m
	}
	lines := func(l ...string) string { return strings.Join(l, "\n") }
	head := []string{"default/p", f("priority", "priority", "100", "class", f("noClass")), f("requests", "cpu", "500m", "memory", "1Gi")}
	return map[string]string{
		"caption":      "t=0s  " + f("start"),
		"nothing":      f("noCluster"),
		"queue empty":  f("queueEmpty"),
		"queue 3":      f("queuePending", "n", "3"),
		"no zone":      f("noZoneLabel", "key", "topology.kubernetes.io/zone"),
		"legend":       "high 1000, " + f("noClass"),
		"search start": f("searchStarts"),
		"search stop":  f("searchStops"),
		"spread":       f("spread", "count", "3", "skew", "1"),
		"cleared":      "× " + f("nominationCleared", "pod", "mid"),
		"pod pending":  lines(append(head, f("pendingIn", "queue", "unschedulable"), f("nominatedTo", "node", "node-b"))...),
		"pod backoff":  lines(append(head, f("backoffLeft", "left", "2s"))...),
		"pod victim": lines(append(head, f("on", "node", "node-a"),
			f("terminating", "what", f("countdown", "stage", "preStop", "next", "SIGTERM", "left", "6s")),
			f("goneIn", "left", "26s"))...),
		"pod evicted": lines(append(head, f("on", "node", "node-a"),
			f("evicted", "what", f("countdown", "stage", "SIGTERM", "next", f("gone"), "left", "10s")))...),
		"chip evicted": f("gone") + " 10s",
		"queue left":   f("queueLeft", "queue", "backoffQ", "left", "2s"),
		"node": lines("node-a", f("zone", "zone", "zone-a"), "cpu 0 / 4", "memory 0 / 8Gi", "pods 0 / 110",
			f("cordonedSpec"), f("taint", "taint", "k:NoSchedule")),
	}
}

// TestWordsReachWhatIsDrawn: the text the canvas draws (captions, titles,
// badges, the legend, tooltips) is made of the catalog's words in each
// language, English by default; in Chinese and Indonesian no English word
// is left where the language has its own.
func TestWordsReachWhatIsDrawn(t *testing.T) {
	for _, lang := range []string{"en", "zh-CN", "id"} {
		t.Run(lang, func(t *testing.T) {
			words := ui.CanvasMessages(t, lang)
			w := parsed(t, words)
			got, want := drawn(&w), expected(words)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("drawn in %s (-want +got):\n%s", lang, diff)
			}
			if lang == "en" {
				if diff := cmp.Diff(want, drawn(nil)); diff != "" {
					t.Errorf("drawn with no words given (-want +got):\n%s", diff)
				}
				return
			}
			en := drawn(nil)
			for k := range got {
				if got[k] == en[k] {
					t.Errorf("%s: drawn in English in %s: %q", k, lang, got[k])
				}
			}
		})
	}
}

func TestParseWords(t *testing.T) {
	w, err := ui.ParseWords(`{"start":"起点","cordoned":"  "}`)
	if err != nil {
		t.Fatal(err)
	}
	want := ui.English
	want.Start = "起点"
	if diff := cmp.Diff(want, w); diff != "" {
		t.Errorf("a word given replaces English, an empty one keeps it (-want +got):\n%s", diff)
	}
	if _, err := ui.ParseWords(`{"caption":"x"}`); err == nil || !strings.Contains(err.Error(), `"caption"`) {
		t.Errorf("a word the canvas does not draw: %v", err)
	}
	if _, err := ui.ParseWords(`[1]`); err == nil {
		t.Error("not an object: no error")
	}
}
