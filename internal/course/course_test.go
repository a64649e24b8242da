package course

import (
	"encoding/json"
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

// keptTerm matches what a translation keeps as upstream prints it: quoted
// messages ("Insufficient cpu"), field and plugin names in camel case
// (terminationGracePeriodSeconds, DefaultPreemption) and signals.
var keptTerm = regexp.MustCompile(`"[^"]+"|\b[a-z]+[A-Z][A-Za-z0-9]*\b|\b[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*\b|\bSIG[A-Z]+\b`)

func keptTerms(english string) []string { return keptTerm.FindAllString(english, -1) }

// lessonText is a lesson's English text by catalog key (lessonKeys).
func lessonText(name string, l *scenario.Lesson) map[string]string {
	m := map[string]string{name + ".title": l.Title, name + ".summary": l.Summary}
	for i, c := range l.Captions {
		m[fmt.Sprintf("%s.caption.%d", name, i)] = c.Text
	}
	for _, q := range l.Questions {
		m[name+".q."+q.ID] = q.Text
	}
	return m
}

// TestKeptTerms: the check of kept terms finds what it is meant to.
func TestKeptTerms(t *testing.T) {
	got := keptTerms(`node-a: "Insufficient cpu"; DefaultPreemption reads terminationGracePeriodSeconds, then SIGKILL.`)
	want := []string{`"Insufficient cpu"`, "DefaultPreemption", "terminationGracePeriodSeconds", "SIGKILL"}
	if !slices.Equal(got, want) {
		t.Errorf("keptTerms = %q, want %q", got, want)
	}
}

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
	english := map[string]string{}
	for name, l := range all {
		want = append(want, lessonKeys(name, l)...)
		for k, v := range lessonText(name, l) {
			english[k] = v
		}
	}
	sort.Strings(want)
	// lessons/en.json is the English the translations are of: the page
	// shows a translation only where the lesson still says that.
	source, err := LoadCatalog(filepath.Join(root, "web", "locales", "lessons", "en.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range want {
		if source[k] != english[k] {
			t.Errorf("lessons/en.json %q is %q, the lesson says %q", k, source[k], english[k])
		}
	}
	if len(source) != len(want) {
		t.Errorf("lessons/en.json has %d keys, the lessons %d", len(source), len(want))
	}
	small := translated(t, "embed")
	translated(t, "")
	for k := range small {
		if _, ok := en[k]; ok {
			t.Errorf("%q is in both en.json and embed/en.json: a key lives in one catalog", k)
		}
	}
	for _, lang := range Languages {
		les, err := LoadCatalog(filepath.Join(root, "web", "locales", "lessons", lang+".json"))
		if err != nil {
			t.Fatal(err)
		}
		// Every lesson string has a translation: a learner never meets
		// half a lesson in English.
		for _, k := range want {
			s, _ := les[k].(string)
			if strings.TrimSpace(s) == "" {
				t.Errorf("lessons/%s.json lacks %q", lang, k)
				continue
			}
			for _, term := range keptTerms(english[k]) {
				if !strings.Contains(s, term) && !strings.Contains(s, strings.TrimSuffix(term, "s")) {
					t.Errorf("lessons/%s.json %q: %q, as upstream writes it, is missing", lang, k, term)
				}
			}
		}
		for k := range les {
			if !slices.Contains(want, k) {
				t.Errorf("lessons/%s.json has %q, which no lesson has", lang, k)
			}
		}
	}
}

// translated checks the catalogs of web/locales/dir (the page's, or the
// embed's small ones): every language has every English key, keeps its
// placeholders and has no key English lacks. It returns the English.
func translated(t *testing.T, dir string) Catalog {
	t.Helper()
	path := func(lang string) string { return filepath.Join(root, "web", "locales", dir, lang+".json") }
	name := func(lang string) string { return filepath.ToSlash(filepath.Join(dir, lang+".json")) }
	en, err := LoadCatalog(path("en"))
	if err != nil {
		t.Fatal(err)
	}
	for _, lang := range Languages {
		cat, err := LoadCatalog(path(lang))
		if err != nil {
			t.Fatal(err)
		}
		for k, v := range en {
			tr, ok := cat[k]
			if !ok {
				t.Errorf("%s lacks %q", name(lang), k)
				continue
			}
			for _, msg := range placeholdersKept(v, tr) {
				t.Errorf("%s %q %s", name(lang), k, msg)
			}
		}
		for k := range cat {
			if _, ok := en[k]; !ok {
				t.Errorf("%s has %q, which %s does not", name(lang), k, name("en"))
			}
		}
	}
	return en
}

// placeholdersKept lists what a translation tr of the English en lacks:
// a placeholder of the English, or for a message with plural forms the
// "other" form every language has (Intl.PluralRules falls back to it).
func placeholdersKept(en, tr any) []string {
	var out []string
	forms := func(m any) map[string]string {
		switch m := m.(type) {
		case string:
			return map[string]string{"other": m}
		case map[string]any:
			f := map[string]string{}
			for k, v := range m {
				f[k], _ = v.(string)
			}
			return f
		}
		return nil
	}
	ef, tf := forms(en), forms(tr)
	_, enPlural := en.(map[string]any)
	if _, trPlural := tr.(map[string]any); enPlural != trPlural {
		return []string{"and the English must both be plain text or both plural forms"}
	}
	if tf["other"] == "" {
		return []string{"has no \"other\" form"}
	}
	for form, text := range tf {
		for _, p := range placeholder.FindAllString(ef["other"], -1) {
			if !strings.Contains(text, p) {
				out = append(out, fmt.Sprintf("form %s drops %s", form, p))
			}
		}
	}
	sort.Strings(out)
	return out
}

// TestPlaceholdersKept: the catalog check catches a dropped placeholder,
// a plural message translated as plain text and a plural without "other".
func TestPlaceholdersKept(t *testing.T) {
	plural := map[string]any{"one": "{n} event", "other": "{n} events"}
	for _, tc := range []struct {
		name    string
		en, tr  any
		problem bool
	}{
		{"plain", "Loading… {pct}%", "正在加载… {pct}%", false},
		{"plain drops", "Loading… {pct}%", "正在加载…", true},
		{"plural", plural, map[string]any{"other": "{n} 个事件"}, false},
		{"plural drops", plural, map[string]any{"other": "事件"}, true},
		{"plural as text", plural, "{n} 个事件", true},
		{"plural without other", plural, map[string]any{"one": "{n} event"}, true},
	} {
		if got := placeholdersKept(tc.en, tc.tr); (len(got) > 0) != tc.problem {
			t.Errorf("%s: %q", tc.name, got)
		}
	}
}

// pageKey finds the catalog keys the page asks for by name: t("key") and
// tr("key") in web/src, data-i18n, data-i18n-title, data-i18n-label and
// data-i18n-keys in its HTML.
var pageKey = regexp.MustCompile(`\b(?:t|tr)\(\s*"([A-Za-z][\w.-]*)"\s*[,)]|\b(?:t|tr)\([\w.]+(?: (?:[=!]==|[<>]=?) "?\w+"?)? \? "([A-Za-z][\w.-]*)" : "([A-Za-z][\w.-]*)"\s*[,)]|data-i18n(?:-title|-label|-keys)?="([^"]+)"`)

// smallImport is an import from messages.ts, the embed's small catalogs.
var smallImport = regexp.MustCompile(`import \{([^}]*)\} from "\./messages"`)

// smallUser says whether a module's t (or tr, the names pageKey finds) is
// messages.ts's.
func smallUser(src []byte) bool {
	for _, m := range smallImport.FindAllSubmatch(src, -1) {
		for _, name := range strings.Split(string(m[1]), ",") {
			if n := strings.Join(strings.Fields(name), " "); n == "t" || n == "t as tr" {
				return true
			}
		}
	}
	return false
}

// TestPageKeysExist fails when the page asks for a message its catalogs do
// not have (the page would show the key itself): a module that takes t
// from messages.ts, and the embed's page, see only the small catalogs
// (web/locales/embed); the rest of the page sees both.
func TestPageKeysExist(t *testing.T) {
	en, err := LoadCatalog(filepath.Join(root, "web", "locales", "en.json"))
	if err != nil {
		t.Fatal(err)
	}
	small, err := LoadCatalog(filepath.Join(root, "web", "locales", "embed", "en.json"))
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(root, "web", "src", "*.ts"))
	html, _ := filepath.Glob(filepath.Join(root, "web", "*.html"))
	used, usedSmall := 0, 0
	for _, f := range append(files, html...) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		onlySmall := smallUser(data) || filepath.Base(f) == "embed.html"
		for _, m := range pageKey.FindAllStringSubmatch(string(data), -1) {
			for _, k := range m[1:] {
				if k == "" {
					continue
				}
				used++
				_, inSmall := small[k]
				_, inPage := en[k]
				switch {
				case onlySmall && !inSmall:
					t.Errorf("%s asks for %q, which embed/en.json lacks (it reads only the small catalogs)", filepath.Base(f), k)
				case !inSmall && !inPage:
					t.Errorf("%s asks for %q, which en.json and embed/en.json lack", filepath.Base(f), k)
				}
				if onlySmall {
					usedSmall++
				}
			}
		}
	}
	if used < 50 || usedSmall < 10 {
		t.Errorf("found %d uses of catalog keys in the page, %d of the small ones: the pattern no longer finds them", used, usedSmall)
	}
}

// glossaryEntry is one term of web/locales/glossary/LANG.json.
type glossaryEntry struct {
	Name  string   `json:"name"`
	Words []string `json:"words"`
	Def   string   `json:"def"`
}

func loadGlossary(t *testing.T, lang string) map[string]glossaryEntry {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, "web", "locales", "glossary", lang+".json"))
	if err != nil {
		t.Fatal(err)
	}
	g := map[string]glossaryEntry{}
	if err := json.Unmarshal(data, &g); err != nil {
		t.Fatalf("glossary %s: %v", lang, err)
	}
	return g
}

// TestGlossaryComplete: every term has a name and an explanation in every
// language, no language has a term English lacks, and the terms issue 21
// names are there.
func TestGlossaryComplete(t *testing.T) {
	en := loadGlossary(t, "en")
	for _, k := range []string{"queueing-hint", "flush", "backoff", "nominated-node", "claims-to-deallocate", "unschedulable-pods", "percentage-of-nodes-to-score"} {
		if _, ok := en[k]; !ok {
			t.Errorf("the glossary lacks %q", k)
		}
	}
	for k, e := range en {
		if e.Name == "" || e.Def == "" || len(e.Words) == 0 {
			t.Errorf("en %q needs a name, an explanation and the words that link to it", k)
		}
	}
	for _, lang := range Languages {
		g := loadGlossary(t, lang)
		for k := range en {
			if e := g[k]; strings.TrimSpace(e.Name) == "" || strings.TrimSpace(e.Def) == "" {
				t.Errorf("glossary %s lacks %q", lang, k)
			}
		}
		for k := range g {
			if _, ok := en[k]; !ok {
				t.Errorf("glossary %s has %q, which en does not", lang, k)
			}
		}
	}
}
