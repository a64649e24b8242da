package api

import (
	"fmt"
	"math"
	"regexp"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/api/resource"
)

// The browser build cannot link apimachinery, so its rounding is pinned here
// against the real thing (a test-only dependency).
func TestQuantityMatchesApimachinery(t *testing.T) {
	for _, s := range quantitySamples {
		ours, err := ParseQuantity(s)
		theirs, theirErr := resource.ParseQuantity(s)
		if !hasNumber.MatchString(s) {
			if err == nil {
				t.Errorf("%q: a quantity without digits must be rejected", s)
			}
			continue
		}
		if (err != nil) != (theirErr != nil) {
			t.Errorf("%q: ours err=%v, apimachinery err=%v", s, err, theirErr)
			continue
		}
		if err != nil {
			continue
		}
		if !millisOverflow(theirs) && (ours.Value() != theirs.Value() || ours.MilliValue() != theirs.MilliValue()) {
			t.Errorf("%q: ours value=%d milli=%d, apimachinery value=%d milli=%d", s, ours.Value(), ours.MilliValue(), theirs.Value(), theirs.MilliValue())
		}
	}
}

var quantitySamples = []string{
	"0", "1", "100m", "500m", "1.5", "0.1", "1001m", "2k", "1M", "1G", "1Ki", "1Mi", "1.5Gi", "128974848",
	"129e6", "123Mi", "1e3", "1E3", "1e-3", "1.5e2", "+1", "-1", ".5", "5.", "0.0000000001", "1n", "1u", "3u",
	"1Ti", "1Pi", "1Ei", "1E", "1P", "10T", "1m", "999m", "1.0001", "", "m", "1x", "1KiB", "1.2.3", "e3", "1e",
	"1ki", "0.5m", "1500u", "2Gi", "64Mi", "1.1Ki",
}

func FuzzQuantityMatchesApimachinery(f *testing.F) {
	for _, s := range quantitySamples {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if hugeExponent.MatchString(s) {
			t.Skip("apimachinery itself takes unbounded time on such exponents")
		}
		if strings.HasPrefix(s, "-") {
			t.Skip("negative requests are invalid; apimachinery rounds tiny negatives to +1n")
		}
		theirs, theirErr := resource.ParseQuantity(s)
		ours, err := ParseQuantity(s)
		if !hasNumber.MatchString(s) {
			if err == nil {
				t.Fatalf("%q: a quantity without digits must be rejected", s)
			}
			return
		}
		if theirErr != nil {
			if err == nil {
				t.Fatalf("%q: apimachinery rejects (%v), ours accepts", s, theirErr)
			}
			return
		}
		if err != nil {
			t.Fatalf("%q: apimachinery accepts (%v), ours rejects: %v", s, theirs.String(), err)
		}
		if !millisOverflow(theirs) && (ours.Value() != theirs.Value() || ours.MilliValue() != theirs.MilliValue()) {
			t.Fatalf("%q: ours value=%d milli=%d, apimachinery value=%d milli=%d", s, ours.Value(), ours.MilliValue(), theirs.Value(), theirs.MilliValue())
		}
	})
}

// millisOverflow reports values whose thousandths may not fit an int64: there
// apimachinery returns a wrapped number and we saturate instead.
func millisOverflow(q resource.Quantity) bool {
	f := math.Abs(q.AsApproximateFloat64())
	return f >= math.MaxInt64/1000
}

// hasNumber matches strings that start with a number; ParseQuantity rejects
// the rest on purpose (upstream reads some of them as zero).
var hasNumber = regexp.MustCompile(`^[+-]?\.?[0-9]`)

var hugeExponent = regexp.MustCompile(`[eE][+-]?[0-9]{5,}`)

// smallQuantitySamples are strings at the edges of parseSmallQuantity's
// domain: digit counts, fractions finer than a nano, every suffix, and
// values near int64's limits.
func smallQuantitySamples() []string {
	nums := []string{"0", "1", "7", "10", "00", "007", "5.", "0.5", "1.5", "0.001", "0.0000000001", "0.0000000015",
		"1.999999999", "1.9999999999", "0.9999999999999", "123456789012345678", "999999999999999999",
		"9223372036854775", "9223372036854", "9223372036", "1.000000001", "12345.6789", "4611686018427387903",
		"1234567890123456789", "0.000000000000000001", "99999999999999999.9", "8589934591", "8589934592"}
	suffixes := []string{"", "n", "u", "m", "k", "M", "G", "T", "P", "E", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei", "e3", "x", "."}
	var out []string
	for _, n := range nums {
		for _, s := range suffixes {
			out = append(out, n+s)
		}
	}
	return append(out, quantitySamples...)
}

func TestSmallQuantityExact(t *testing.T) {
	fast := 0
	for _, s := range smallQuantitySamples() {
		if checkSmallQuantity(t, s) {
			fast++
		}
	}
	if fast < 300 {
		t.Errorf("only %d samples took the small path", fast)
	}
}

func FuzzSmallQuantityExact(f *testing.F) {
	for _, s := range smallQuantitySamples() {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if hugeExponent.MatchString(s) {
			t.Skip("the general path is slow on huge exponents")
		}
		checkSmallQuantity(t, s)
	})
}

// checkSmallQuantity fails t when the small path reads s differently from
// the general path; it reports whether the small path read it.
func checkSmallQuantity(t *testing.T, s string) bool {
	t.Helper()
	small, ok := parseSmallQuantity(s)
	if !ok {
		return false
	}
	big, err := parseBigQuantity(s)
	if err != nil {
		t.Errorf("%q: small path read %s, general path rejects: %v", s, fields(small), err)
	} else if small != big {
		t.Errorf("%q: small path read %s, general path %s", s, fields(small), fields(big))
	}
	return true
}

func fields(q Quantity) string {
	return fmt.Sprintf("value %d milli %d whole %d nano %d", q.value, q.milli, q.whole, q.nano)
}
