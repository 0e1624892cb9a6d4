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
// many were not; for tests of the request's shape, also its headers, the response format asked
// for, and every message as sent.
type ChatCall struct {
	Model     string
	System    string
	Texts     []string
	PNGs      int
	BadImages int

	Header         http.Header   // the request's headers (Authorization, …)
	ResponseFormat string        // the type of response_format, "" without one
	Messages       []ChatMessage // the messages in the order sent
}

// ChatMessage is one message of a chat completion: its content is either a string (Text) or a
// list of parts (Parts, not nil then).
type ChatMessage struct {
	Role  string
	Text  string
	Parts []ChatPart
}

// ChatPart is one part of a message's content: a text ("text") or an image ("image_url").
type ChatPart struct {
	Type     string
	Text     string
	ImageURL string // the image's URL, often a data URL
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
		ResponseFormat *struct {
			Type string `json:"type"`
		} `json:"response_format"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, `{"error":{"message":"bad json"}}`, http.StatusBadRequest)
		return
	}
	call := ChatCall{Model: req.Model, Header: r.Header.Clone()}
	if req.ResponseFormat != nil {
		call.ResponseFormat = req.ResponseFormat.Type
	}
	for _, msg := range req.Messages {
		var text string
		if json.Unmarshal(msg.Content, &text) == nil {
			if msg.Role == "system" {
				call.System = text
			} else {
				call.Texts = append(call.Texts, text)
			}
			call.Messages = append(call.Messages, ChatMessage{Role: msg.Role, Text: text})
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
		sent := ChatMessage{Role: msg.Role, Parts: []ChatPart{}}
		for _, p := range parts {
			part := ChatPart{Type: p.Type, Text: p.Text}
			if p.ImageURL != nil {
				part.ImageURL = p.ImageURL.URL
			}
			sent.Parts = append(sent.Parts, part)
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
		call.Messages = append(call.Messages, sent)
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
