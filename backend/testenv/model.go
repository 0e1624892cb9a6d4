package testenv

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

// ChatModel is an OpenAI-compatible chat model on loopback (POST /v1/chat/completions) whose
// answers a test decides from what each call carried; it records every call.
type ChatModel struct {
	srv    *httptest.Server
	answer func(ChatCall) (status int, content string)
	mu     sync.Mutex
	calls  []ChatCall
	done   chan struct{}
}

// ChatCall is what one chat completion carried: the system message, the text parts of the
// other messages, and how many of their image parts were PNG data URLs that decode, and how
// many were not.
type ChatCall struct {
	Model     string
	System    string
	Texts     []string
	PNGs      int
	BadImages int
}

// HangAnswer as a status makes the ChatModel never answer the call.
const HangAnswer = 0

// NewChatModel serves answer's answers until t ends: the content of a chat completion when the
// status is 200, an OpenAI error body with the content as its message for another status, no
// answer at all (the client gives up) for HangAnswer.
func NewChatModel(t testing.TB, answer func(ChatCall) (status int, content string)) *ChatModel {
	m := &ChatModel{answer: answer, done: make(chan struct{})}
	m.srv = httptest.NewServer(http.HandlerFunc(m.serve))
	t.Cleanup(func() {
		close(m.done)
		m.srv.Close()
	})
	return m
}

// URL is the model's base URL (OPENAI_BASE_URL).
func (m *ChatModel) URL() string { return m.srv.URL + "/v1" }

// Calls are the calls received so far.
func (m *ChatModel) Calls() []ChatCall {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]ChatCall(nil), m.calls...)
}

func (m *ChatModel) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.URL.Path != "/v1/chat/completions" {
		http.Error(w, `{"error":{"message":"no such route"}}`, http.StatusNotFound)
		return
	}
	var req struct {
		Model    string `json:"model"`
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, `{"error":{"message":"bad json"}}`, http.StatusBadRequest)
		return
	}
	call := ChatCall{Model: req.Model}
	for _, msg := range req.Messages {
		var text string
		if json.Unmarshal(msg.Content, &text) == nil {
			if msg.Role == "system" {
				call.System = text
			} else {
				call.Texts = append(call.Texts, text)
			}
			continue
		}
		var parts []struct {
			Type     string `json:"type"`
			Text     string `json:"text"`
			ImageURL *struct {
				URL string `json:"url"`
			} `json:"image_url"`
		}
		if err := json.Unmarshal(msg.Content, &parts); err != nil {
			http.Error(w, `{"error":{"message":"bad content"}}`, http.StatusBadRequest)
			return
		}
		for _, p := range parts {
			switch p.Type {
			case "text":
				call.Texts = append(call.Texts, p.Text)
			case "image_url":
				if p.ImageURL != nil && isPNGDataURL(p.ImageURL.URL) {
					call.PNGs++
				} else {
					call.BadImages++
				}
			}
		}
	}
	m.mu.Lock()
	m.calls = append(m.calls, call)
	m.mu.Unlock()
	status, content := m.answer(call)
	switch status {
	case HangAnswer:
		select {
		case <-r.Context().Done():
		case <-m.done:
		}
	case http.StatusOK:
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{
			"id": "chatcmpl-test", "object": "chat.completion", "created": time.Now().Unix(), "model": req.Model,
			"choices": []map[string]any{{"index": 0, "finish_reason": "stop",
				"message": map[string]any{"role": "assistant", "content": content}}},
		})
	default:
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_ = json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{"message": content, "type": "server_error"}})
	}
}
