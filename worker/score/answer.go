package score

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
)

// answer is the model's judgement: {"score": 0..1, "category", "reason"}.
type answer struct {
	Score    float64
	Category string
	Reason   string
}

// parseAnswer reads and checks the model's answer: one JSON object whose score is a number within
// [0,1], whose category is one of Categories (any case) and whose reason is not blank; the reason
// is cut to MaxReason characters. Other members are ignored. Two wrappers that
// OpenAI-compatible servers put around JSON are tolerated: a leading <think>…</think> block of a
// reasoning model and a ```json fence.
func parseAnswer(content string) (answer, error) {
	s := strings.TrimSpace(content)
	if rest, ok := strings.CutPrefix(s, "<think>"); ok {
		_, after, found := strings.Cut(rest, "</think>")
		if !found {
			return answer{}, errors.New("unterminated <think> block")
		}
		s = strings.TrimSpace(after)
	}
	if rest, ok := strings.CutPrefix(s, "```"); ok {
		rest = strings.TrimPrefix(rest, "json")
		body, found := strings.CutSuffix(strings.TrimSpace(rest), "```")
		if !found {
			return answer{}, errors.New("unterminated code fence")
		}
		s = strings.TrimSpace(body)
	}
	if s == "" {
		return answer{}, errors.New("empty answer")
	}
	var raw struct {
		Score    *json.RawMessage `json:"score"`
		Category *string          `json:"category"`
		Reason   *string          `json:"reason"`
	}
	dec := json.NewDecoder(strings.NewReader(s))
	if err := dec.Decode(&raw); err != nil {
		return answer{}, fmt.Errorf("not a JSON object: %w", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return answer{}, errors.New("data after the JSON object")
	}
	if raw.Score == nil || bytes.Equal(*raw.Score, []byte("null")) {
		return answer{}, errors.New("no score")
	}
	// A number, not a string holding one: "0.9" is as malformed as "high".
	if b := (*raw.Score)[0]; b != '-' && (b < '0' || b > '9') {
		return answer{}, fmt.Errorf("score %s is not a number", truncate(string(*raw.Score), 40))
	}
	var a answer
	if err := json.Unmarshal(*raw.Score, &a.Score); err != nil {
		return answer{}, fmt.Errorf("score %s is not a number", truncate(string(*raw.Score), 40))
	}
	if math.IsNaN(a.Score) || a.Score < 0 || a.Score > 1 {
		return answer{}, fmt.Errorf("score %v is out of [0,1]", a.Score)
	}
	a.Score = math.Abs(a.Score) // -0
	if raw.Category == nil {
		return answer{}, errors.New("no category")
	}
	a.Category = strings.ToLower(strings.TrimSpace(*raw.Category))
	if !knownCategory(a.Category) {
		return answer{}, fmt.Errorf("unknown category %q", truncate(*raw.Category, 40))
	}
	if raw.Reason == nil {
		return answer{}, errors.New("no reason")
	}
	a.Reason = truncate(strings.Join(strings.Fields(*raw.Reason), " "), MaxReason)
	if a.Reason == "" {
		return answer{}, errors.New("blank reason")
	}
	return a, nil
}
