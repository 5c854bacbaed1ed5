package inputs

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/pelletier/go-toml/v2"
)

// The value checkers settings are built from: each says what is wrong in words a
// suite author understands, with the value's TOML type.

func typeName(v any) string {
	switch v.(type) {
	case string:
		return "a string"
	case int64:
		return "an integer"
	case float64:
		return "a float"
	case bool:
		return "a boolean"
	case []any:
		return "an array"
	case map[string]any:
		return "a table"
	case time.Time:
		return "a date-time"
	case toml.LocalDateTime:
		return "a local date-time"
	case toml.LocalDate:
		return "a date"
	case toml.LocalTime:
		return "a time of day"
	}
	return fmt.Sprintf("a %T", v)
}

func intIn(v any, lo, hi int64) (int, error) {
	n, ok := v.(int64)
	if !ok {
		return 0, fmt.Errorf("must be an integer, got %s", typeName(v))
	}
	if n < lo || n > hi {
		return 0, fmt.Errorf("must be between %d and %d, got %d", lo, hi, n)
	}
	return int(n), nil
}

func float(v any) (float64, error) {
	switch x := v.(type) {
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return 0, fmt.Errorf("must be a finite number, got %v", x)
		}
		return x, nil
	case int64:
		return float64(x), nil
	case string:
		return 0, fmt.Errorf("must be a number such as 0.03, got the string %q", x)
	}
	return 0, fmt.Errorf("must be a number such as 0.03, got %s", typeName(v))
}

func oneOf(v any, allowed ...string) (string, error) {
	s, ok := v.(string)
	if !ok {
		return "", fmt.Errorf("must be a string, got %s", typeName(v))
	}
	for _, a := range allowed {
		if s == a {
			return s, nil
		}
	}
	if s == "" {
		return "", fmt.Errorf("must be one of %s, got an empty string", quoteList(allowed))
	}
	return "", fmt.Errorf("%q is not one of %s", s, quoteList(allowed))
}

// maxDuration bounds every duration setting: a week is longer than any benchmark, and
// sums such as the default hang timeout (2 * max_time_per_point + 5s) cannot overflow.
const maxDuration = 7 * 24 * time.Hour

func duration(v any) (time.Duration, error) {
	switch x := v.(type) {
	case string:
		d, err := ParseDuration(x)
		if err == nil && d > maxDuration {
			return 0, fmt.Errorf("%q is longer than a week (168h), the limit", x)
		}
		return d, err
	case int64, float64:
		return 0, fmt.Errorf(`must be a string with a unit such as "5s" or "500ms", got the number %v with no unit`, x)
	}
	return 0, fmt.Errorf(`must be a string with a unit such as "5s" or "500ms", got %s`, typeName(v))
}

// size accepts an integer (bytes) or a string with a unit.
func size(v any) (int64, error) {
	switch x := v.(type) {
	case int64:
		return checkSize(fmt.Sprint(x), float64(x), x, 1)
	case string:
		return ParseSize(x)
	}
	return 0, fmt.Errorf(`must be a size such as "64KiB" or a byte count, got %s`, typeName(v))
}

func quoteList(xs []string) string {
	q := make([]string, len(xs))
	for i, x := range xs {
		q[i] = fmt.Sprintf("%q", x)
	}
	return strings.Join(q, ", ")
}

// zeroDuration: v is a duration string of zero ("0", "0s", "0us"), which
// ParseDuration refuses but a setting whose default is none accepts.
func zeroDuration(v any) bool {
	x, ok := v.(string)
	if !ok {
		return false
	}
	num := strings.TrimRight(strings.TrimSpace(x), "abcdefghijklmnopqrstuvwxyzµ")
	f, err := strconv.ParseFloat(num, 64)
	return err == nil && f == 0 && num != ""
}
