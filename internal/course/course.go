// Package course reads the course (examples/course.json): the lessons in
// teaching order, in chapters, as the playground's course index lists
// them, and the page's message catalogs (web/locales) that translate the
// page, the chapters and the lessons' text.
package course

import (
	"encoding/json"
	"fmt"
	"os"
)

// Course is the lessons in teaching order.
type Course struct {
	Chapters []Chapter `json:"chapters"`
}

// Chapter is one topic of the course; Title is English (the catalogs
// translate it as "chapter.<id>").
type Chapter struct {
	ID      string   `json:"id"`
	Title   string   `json:"title"`
	Lessons []string `json:"lessons"`
}

// Load reads a course file.
func Load(path string) (Course, error) {
	var c Course
	data, err := os.ReadFile(path)
	if err != nil {
		return c, fmt.Errorf("reading the course: %w", err)
	}
	if err := json.Unmarshal(data, &c); err != nil {
		return c, fmt.Errorf("reading %s: %w", path, err)
	}
	return c, nil
}

// Languages are the page's languages besides English, as BCP 47 tags.
var Languages = []string{"zh-CN", "id"}

// Catalog is one language's messages: a key to its text, or to its plural
// forms by Intl.PluralRules category ({"one": ..., "other": ...}).
type Catalog map[string]any

// LoadCatalog reads a catalog file.
func LoadCatalog(path string) (Catalog, error) {
	c := Catalog{}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading a catalog: %w", err)
	}
	if err := json.Unmarshal(data, &c); err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	return c, nil
}
