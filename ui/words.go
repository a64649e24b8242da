package ui

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
)

// Words are the fixed words the canvas draws around the engine's facts
// (captions, the queue lane's title, the legend, badges, tooltips), in the
// reader's language. The page sends them from its catalogs (the keys
// canvas.<json name> of web/locales/embed/<lang>.json); names, reasons,
// figures, event kinds and upstream's terms (activeQ, cpu) stay as the
// engine gives them. A {name} in a word is filled in where it is drawn.
type Words struct {
	Start             string `json:"start"`
	NoCluster         string `json:"noCluster"`
	QueueEmpty        string `json:"queueEmpty"`
	QueuePending      string `json:"queuePending"`
	NoZoneLabel       string `json:"noZoneLabel"`
	Cordoned          string `json:"cordoned"`
	Legend            string `json:"legend"`
	NoClass           string `json:"noClass"`
	SearchStarts      string `json:"searchStarts"`
	SearchStops       string `json:"searchStops"`
	Spread            string `json:"spread"`
	NominationCleared string `json:"nominationCleared"`
	Priority          string `json:"priority"`
	Requests          string `json:"requests"`
	On                string `json:"on"`
	Pending           string `json:"pending"`
	PendingIn         string `json:"pendingIn"`
	BackoffLeft       string `json:"backoffLeft"`
	NominatedTo       string `json:"nominatedTo"`
	Terminating       string `json:"terminating"`
	Evicted           string `json:"evicted"`
	GoneIn            string `json:"goneIn"`
	Gone              string `json:"gone"`
	Countdown         string `json:"countdown"`
	QueueLeft         string `json:"queueLeft"`
	Zone              string `json:"zone"`
	CordonedSpec      string `json:"cordonedSpec"`
	Taint             string `json:"taint"`
}

// English is the canvas's words where no page chose others: the CLI, the
// native tests, a page that sends none. web/locales/embed/en.json holds
// the same (words_test.go).
var English = Words{
	Start:             "the cluster as loaded, before the first event",
	NoCluster:         "no cluster loaded yet",
	QueueEmpty:        "Scheduling queue · empty",
	QueuePending:      "Scheduling queue · {n} pending",
	NoZoneLabel:       "no {key} label",
	Cordoned:          "cordoned",
	Legend:            "PriorityClass",
	NoClass:           "no class",
	SearchStarts:      "search starts",
	SearchStops:       "search stops",
	Spread:            "{count} matching · skew {skew}",
	NominationCleared: "{pod}: nomination cleared",
	Priority:          "priority {priority} ({class})",
	Requests:          "requests cpu {cpu}, memory {memory}",
	On:                "on {node}",
	Pending:           "pending",
	PendingIn:         "pending in {queue}",
	BackoffLeft:       "pending in backoffQ: {left} of backoff left",
	NominatedTo:       "nominated to {node}",
	Terminating:       "terminating: {what}",
	Evicted:           "evicted: {what}",
	GoneIn:            "gone in {left}",
	Gone:              "gone",
	Countdown:         "{stage} · {next} in {left}",
	QueueLeft:         "{queue}, {left} left",
	Zone:              "zone {zone}",
	CordonedSpec:      "cordoned (spec.unschedulable)",
	Taint:             "taint {taint}",
}

// ParseWords reads a table of words as the page sends it: a JSON object
// of the words' json names; a word left out or empty stays English, and a
// name the canvas does not draw is an error (a catalog and the canvas that
// disagree).
func ParseWords(data string) (Words, error) {
	var m map[string]string
	if err := json.Unmarshal([]byte(data), &m); err != nil {
		return English, fmt.Errorf("parsing words: %w", err)
	}
	w := English
	v := reflect.ValueOf(&w).Elem()
	byName := map[string]int{}
	for i := range v.NumField() {
		byName[v.Type().Field(i).Tag.Get("json")] = i
	}
	for name, text := range m {
		i, ok := byName[name]
		if !ok {
			return English, fmt.Errorf("parsing words: the canvas draws no word %q", name)
		}
		if strings.TrimSpace(text) != "" {
			v.Field(i).SetString(text)
		}
	}
	return w, nil
}

// fill puts values in a word's {name} placeholders; kv alternates names
// and values. Frames draw filled words (the queue lane's title), so it
// replaces in place rather than building a strings.Replacer a call.
func fill(word string, kv ...string) string {
	for i := 0; i+1 < len(kv) && strings.Contains(word, "{"); i += 2 {
		word = strings.ReplaceAll(word, "{"+kv[i]+"}", kv[i+1])
	}
	return word
}

// wordsOr is w, or English when w is nil.
func wordsOr(w *Words) *Words {
	if w == nil {
		return &English
	}
	return w
}
