package course

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/schedplay/schedplay/core/scenario"
)

const root = "../.."

func lessons(t *testing.T) map[string]*scenario.Lesson {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(root, "examples", "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	out := map[string]*scenario.Lesson{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		sc, err := scenario.Load(f, data)
		if err != nil {
			t.Fatalf("loading %s: %v", f, err)
		}
		if sc.Lesson != nil {
			out[strings.TrimSuffix(filepath.Base(f), ".yaml")] = sc.Lesson
		}
	}
	return out
}

// TestEveryLessonInOneChapter: the course lists each example exactly once.
func TestEveryLessonInOneChapter(t *testing.T) {
	c, err := Load(filepath.Join(root, "examples", "course.json"))
	if err != nil {
		t.Fatal(err)
	}
	all := lessons(t)
	where := map[string]string{}
	ids := map[string]bool{}
	for _, ch := range c.Chapters {
		if ch.ID == "" || ch.Title == "" || len(ch.Lessons) == 0 {
			t.Errorf("chapter %+v needs an id, a title and lessons", ch)
		}
		if ids[ch.ID] {
			t.Errorf("two chapters have id %q", ch.ID)
		}
		ids[ch.ID] = true
		for _, l := range ch.Lessons {
			if prev, ok := where[l]; ok {
				t.Errorf("lesson %s is in chapters %s and %s", l, prev, ch.ID)
			}
			where[l] = ch.ID
			if all[l] == nil {
				t.Errorf("chapter %s lists %s, which is no example", ch.ID, l)
			}
		}
	}
	for name := range all {
		if where[name] == "" {
			t.Errorf("lesson %s is in no chapter of examples/course.json", name)
		}
	}
}

// lessonKeys are the catalog keys a lesson's text needs in every language.
func lessonKeys(name string, l *scenario.Lesson) []string {
	keys := []string{name + ".title", name + ".summary"}
	for i := range l.Captions {
		keys = append(keys, fmt.Sprintf("%s.caption.%d", name, i))
	}
	for _, q := range l.Questions {
		keys = append(keys, name+".q."+q.ID)
	}
	return keys
}

var placeholder = regexp.MustCompile(`\{\w+\}`)

// TestCatalogsComplete fails when a key is missing in a language (or
// left over from text that is gone), or a translation drops a
// placeholder the English text has.
func TestCatalogsComplete(t *testing.T) {
	en, err := LoadCatalog(filepath.Join(root, "web", "locales", "en.json"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := Load(filepath.Join(root, "examples", "course.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, ch := range c.Chapters {
		if en["chapter."+ch.ID] != ch.Title {
			t.Errorf("en.json chapter.%s is %q, the course says %q", ch.ID, en["chapter."+ch.ID], ch.Title)
		}
	}
	all := lessons(t)
	var want []string
	for name, l := range all {
		want = append(want, lessonKeys(name, l)...)
	}
	sort.Strings(want)
	for _, lang := range Languages {
		cat, err := LoadCatalog(filepath.Join(root, "web", "locales", lang+".json"))
		if err != nil {
			t.Fatal(err)
		}
		for k, v := range en {
			tr, ok := cat[k]
			if !ok {
				t.Errorf("%s.json lacks %q", lang, k)
				continue
			}
			if s, ok := v.(string); ok {
				ts, _ := tr.(string)
				for _, p := range placeholder.FindAllString(s, -1) {
					if !strings.Contains(ts, p) {
						t.Errorf("%s.json %q drops %s", lang, k, p)
					}
				}
			}
		}
		for k := range cat {
			if _, ok := en[k]; !ok {
				t.Errorf("%s.json has %q, which en.json does not", lang, k)
			}
		}
		les, err := LoadCatalog(filepath.Join(root, "web", "locales", "lessons", lang+".json"))
		if err != nil {
			t.Fatal(err)
		}
		// Lesson text is translated lesson by lesson: a lesson with any
		// key translated must have all of them, so that a learner never
		// meets half a lesson in English.
		started := map[string]bool{}
		for k := range les {
			started[strings.SplitN(k, ".", 2)[0]] = true
		}
		for _, k := range want {
			if !started[strings.SplitN(k, ".", 2)[0]] {
				continue
			}
			if s, _ := les[k].(string); strings.TrimSpace(s) == "" {
				t.Errorf("lessons/%s.json lacks %q", lang, k)
			}
		}
		for k := range les {
			if !slices.Contains(want, k) {
				t.Errorf("lessons/%s.json has %q, which no lesson has", lang, k)
			}
		}
	}
}
