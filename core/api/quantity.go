package api

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
)

// Quantity is a Kubernetes resource quantity ("500m", "1Gi", "1e3").
//
// It keeps the text as written (so a scenario round-trips byte for byte) and
// the two integer views the scheduler reads: Value (rounded up to a whole
// unit, used for memory, storage, pods and extended resources) and MilliValue
// (rounded up to a thousandth, used for cpu). The rounding follows
// k8s.io/apimachinery's resource.Quantity, which a differential test pins;
// that package is not linked because it pulls CBOR and JSON codecs into the
// browser build.
type Quantity struct {
	s     string
	value int64
	milli int64
	// whole and nano hold a non-negative quantity exactly (whole units plus
	// nano billionths) so sums round once, as upstream adds Quantities
	// before reading Value or MilliValue. Negative quantities keep
	// whole = value and nano = 0.
	whole, nano int64
}

// quantityGrammar is how upstream words the accepted form in its error.
const quantityGrammar = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"

var binarySuffixes = map[string]uint{"Ki": 10, "Mi": 20, "Gi": 30, "Ti": 40, "Pi": 50, "Ei": 60}

var decimalSuffixes = map[string]int{"n": -9, "u": -6, "m": -3, "": 0, "k": 3, "M": 6, "G": 9, "T": 12, "P": 15, "E": 18}

// ParseQuantity parses s with the grammar of resource.ParseQuantity.
func ParseQuantity(s string) (Quantity, error) {
	if len(s) == 0 {
		return Quantity{}, fmt.Errorf("quantity is empty: %s", quantityGrammar)
	}
	if q, ok := parseSmallQuantity(s); ok {
		return q, nil
	}
	return parseBigQuantity(s)
}

// parseBigQuantity is ParseQuantity for any input, in exact rational arithmetic.
func parseBigQuantity(s string) (Quantity, error) {
	// Split the signed number from the suffix.
	i := 0
	if s[0] == '+' || s[0] == '-' {
		i++
	}
	digits, dots := 0, 0
	for ; i < len(s); i++ {
		c := s[i]
		if c >= '0' && c <= '9' {
			digits++
			continue
		}
		if c == '.' {
			dots++
			continue
		}
		break
	}
	// Upstream reads some digitless strings ("m", "+", "Ki") as zero and rejects
	// others ("Pi"); a quantity without a number is always a mistake, so say so.
	if digits == 0 || dots > 1 {
		return Quantity{}, fmt.Errorf("%q is not a quantity: %s", s, quantityGrammar)
	}
	num, suffix := s[:i], s[i:]
	r, ok := new(big.Rat).SetString(strings.TrimSuffix(strings.TrimPrefix(num, "+"), "."))
	if !ok {
		return Quantity{}, fmt.Errorf("%q is not a quantity: %s", s, quantityGrammar)
	}
	if shift, ok := binarySuffixes[suffix]; ok {
		r.Mul(r, new(big.Rat).SetInt(new(big.Int).Lsh(big.NewInt(1), shift)))
	} else if exp, ok := decimalSuffixes[suffix]; ok {
		r.Mul(r, pow10(exp))
	} else if len(suffix) > 1 && (suffix[0] == 'e' || suffix[0] == 'E') {
		exp, err := strconv.ParseInt(suffix[1:], 10, 64)
		if err != nil {
			return Quantity{}, fmt.Errorf("%q has an invalid exponent: %s", s, quantityGrammar)
		}
		// Past 10^±1000 every value saturates or rounds to the smallest unit
		// anyway; clamping keeps the arithmetic small.
		exp = max(-1000, min(1000, exp))
		r.Mul(r, pow10(int(exp)))
	} else {
		return Quantity{}, fmt.Errorf("%q has an unknown suffix %q (use one of m, k, M, G, T, P, E, Ki, Mi, Gi, Ti, Pi, Ei or an exponent like e3)", s, suffix)
	}
	// Upstream keeps at most nano precision and rounds anything finer up.
	r = ceilScaled(r, 9)
	q := Quantity{s: s, value: ceilInt(r, 0), milli: ceilInt(r, 3)}
	q.whole, q.nano = q.value, 0
	if r.Sign() > 0 {
		// r is a multiple of 10^-9 here, so the fraction is whole nanos.
		whole, frac := new(big.Int).QuoRem(r.Num(), r.Denom(), new(big.Int))
		if whole.IsInt64() {
			q.whole = whole.Int64()
			q.nano = new(big.Int).Quo(new(big.Int).Mul(frac, big.NewInt(1e9)), r.Denom()).Int64()
		}
	}
	return q, nil
}

// parseSmallQuantity is ParseQuantity for what manifests nearly always hold
// ("100m", "64Gi", "0.5", "110"): an unsigned decimal of at most 18 digits
// with a unit suffix (no exponent), whose exact value fits int64 arithmetic.
// It gives the Quantity the math/big path gives (TestSmallQuantityExact and
// FuzzSmallQuantityExact compare them) without its allocations; ok is false
// for anything else, which the general path then reads.
func parseSmallQuantity(s string) (Quantity, bool) {
	var x int64 // the digits as one integer
	digits, frac := 0, -1
	i := 0
	for ; i < len(s); i++ {
		c := s[i]
		if c >= '0' && c <= '9' {
			x = x*10 + int64(c-'0')
			digits++
			if frac >= 0 {
				frac++
			}
			continue
		}
		if c == '.' && frac < 0 && digits > 0 {
			frac = 0
			continue
		}
		break
	}
	if digits == 0 || digits > 18 {
		return Quantity{}, false
	}
	// The value is x * 2^shift * 10^exp.
	shift, exp := uint(0), -max(frac, 0)
	switch s[i:] {
	case "":
	case "n":
		exp -= 9
	case "u":
		exp -= 6
	case "m":
		exp -= 3
	case "k":
		exp += 3
	case "M":
		exp += 6
	case "G":
		exp += 9
	case "T":
		exp += 12
	case "P":
		exp += 15
	case "E":
		exp += 18
	case "Ki":
		shift = 10
	case "Mi":
		shift = 20
	case "Gi":
		shift = 30
	case "Ti":
		shift = 40
	case "Pi":
		shift = 50
	case "Ei":
		shift = 60
	default:
		return Quantity{}, false
	}
	if x > math.MaxInt64>>shift {
		return Quantity{}, false
	}
	x <<= shift
	if exp >= 0 {
		for ; exp > 0; exp-- {
			if x > math.MaxInt64/10 {
				return Quantity{}, false
			}
			x *= 10
		}
		return Quantity{s: s, value: x, milli: satMul(x, 1000), whole: x}, true
	}
	if -exp > 18 {
		return Quantity{}, false
	}
	// whole units and the rest, rounded up to nanos as the general path does
	p := pow10Int[-exp]
	whole, rest := x/p, x%p
	var nano int64
	if -exp <= 9 {
		nano = rest * pow10Int[9+exp]
	} else {
		d := pow10Int[-exp-9]
		nano = (rest + d - 1) / d
	}
	if nano == 1e9 {
		whole, nano = whole+1, 0
	}
	if whole > math.MaxInt64/1000-1 {
		return Quantity{}, false
	}
	value, milli := whole, whole*1000+(nano+1e6-1)/1e6
	if nano > 0 {
		value++
	}
	return Quantity{s: s, value: value, milli: milli, whole: whole, nano: nano}, true
}

var pow10Int = [19]int64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18}

// MustParseQuantity parses s or panics; for tests and constants.
func MustParseQuantity(s string) Quantity {
	q, err := ParseQuantity(s)
	if err != nil {
		panic(err)
	}
	return q
}

// NewQuantity returns a quantity of v whole units.
func NewQuantity(v int64) Quantity {
	return Quantity{s: strconv.FormatInt(v, 10), value: v, milli: satMul(v, 1000), whole: v}
}

// NewMilliQuantity returns a quantity of m thousandths.
func NewMilliQuantity(m int64) Quantity {
	if m%1000 == 0 {
		return NewQuantity(m / 1000)
	}
	v := m / 1000
	if m > 0 {
		v++
	}
	q := Quantity{s: strconv.FormatInt(m, 10) + "m", value: v, milli: m, whole: v}
	if m > 0 {
		q.whole, q.nano = m/1000, m%1000*1e6
	}
	return q
}

// String returns the quantity as written.
func (q Quantity) String() string { return q.s }

// Value returns the quantity rounded up to a whole unit.
func (q Quantity) Value() int64 { return q.value }

// MilliValue returns the quantity in thousandths, rounded up.
func (q Quantity) MilliValue() int64 { return q.milli }

// IsZero reports whether the quantity is zero.
func (q Quantity) IsZero() bool { return q.milli == 0 && q.value == 0 }

// Sign returns -1, 0 or 1.
func (q Quantity) Sign() int {
	switch {
	case q.milli < 0:
		return -1
	case q.milli > 0:
		return 1
	}
	return 0
}

func pow10(exp int) *big.Rat {
	p := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(abs(exp))), nil)
	if exp < 0 {
		return new(big.Rat).SetFrac(big.NewInt(1), p)
	}
	return new(big.Rat).SetInt(p)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// ceilScaled rounds r away from zero to a multiple of 10^-scale.
func ceilScaled(r *big.Rat, scale int) *big.Rat {
	m := new(big.Rat).Mul(r, pow10(scale))
	c := ceilBig(m)
	return new(big.Rat).Mul(new(big.Rat).SetInt(c), pow10(-scale))
}

// ceilBig rounds away from zero, as resource.Quantity does for negative values too.
func ceilBig(r *big.Rat) *big.Int {
	q, m := new(big.Int).QuoRem(r.Num(), r.Denom(), new(big.Int))
	if m.Sign() != 0 {
		q.Add(q, big.NewInt(int64(r.Sign())))
	}
	return q
}

// ceilInt returns r * 10^scale rounded away from zero, saturated to int64.
func ceilInt(r *big.Rat, scale int) int64 {
	c := ceilBig(new(big.Rat).Mul(r, pow10(scale)))
	if !c.IsInt64() {
		if c.Sign() > 0 {
			return math.MaxInt64
		}
		return math.MinInt64
	}
	return c.Int64()
}

func satMul(v, f int64) int64 {
	if v > math.MaxInt64/f {
		return math.MaxInt64
	}
	if v < math.MinInt64/f {
		return math.MinInt64
	}
	return v * f
}

// MarshalJSON writes the quantity as its canonical string, as resource.Quantity does.
func (q Quantity) MarshalJSON() ([]byte, error) { return json.Marshal(q.s) }

// UnmarshalJSON reads a quantity string.
func (q *Quantity) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("decoding quantity: %w", err)
	}
	v, err := ParseQuantity(s)
	if err != nil {
		return err
	}
	*q = v
	return nil
}
