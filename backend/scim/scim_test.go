package scim

import (
	"encoding/json"
	"testing"

	"github.com/shortlink/shortlink/backend/apperr"
)

func TestParseUserFilter(t *testing.T) {
	for _, tc := range []struct {
		in     string
		want   Query
		reason string
	}{
		{``, Query{}, ""},
		{`userName eq "ann@example.com"`, Query{"userName", "ann@example.com"}, ""},
		{`UserName Eq "Ann@Example.com"`, Query{"userName", "Ann@Example.com"}, ""},
		{`urn:ietf:params:scim:schemas:core:2.0:User:userName eq "a@b.c"`, Query{"userName", "a@b.c"}, ""},
		{`externalId eq "00u1"`, Query{"externalId", "00u1"}, ""},
		{`emails[type eq "work"].value eq "a@b.c"`, Query{"email", "a@b.c"}, ""},
		{`emails[type eq "work" and value eq "a@b.c"]`, Query{"email", "a@b.c"}, ""},
		{`emails.value eq "a@b.c"`, Query{"email", "a@b.c"}, ""},
		{`userName eq`, Query{}, "scim_invalid_filter"},
		{`userName sw "a"`, Query{}, "scim_invalid_filter"},
		{`favouriteColour eq "blue"`, Query{}, "scim_invalid_filter"},
		{`userName eq "a" or userName eq "b"`, Query{}, "scim_invalid_filter"},
		{`userName eq 3`, Query{}, "scim_invalid_filter"},
		{`emails[type eq "work" or value eq "x"]`, Query{}, "scim_invalid_filter"},
		{`urn:ietf:params:scim:schemas:core:2.0:Group:displayName eq "a"`, Query{}, "scim_invalid_filter"},
	} {
		got, err := ParseUserFilter(tc.in)
		if tc.reason != "" {
			if apperr.ReasonOf(err) != tc.reason || ErrorType(apperr.ReasonOf(err)) != "invalidFilter" {
				t.Errorf("%s: %v, want %s", tc.in, err, tc.reason)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%s: %+v %v, want %+v", tc.in, got, err, tc.want)
		}
	}
	if q, err := ParseGroupFilter(`displayName eq "Admin"`); err != nil || q != (Query{"displayName", "Admin"}) {
		t.Errorf("group filter: %+v %v", q, err)
	}
	if _, err := ParseGroupFilter(`userName eq "a"`); apperr.ReasonOf(err) != "scim_invalid_filter" {
		t.Errorf("a user attribute in a group filter: %v", err)
	}
}

func ops(t *testing.T, body string) []PatchOp {
	t.Helper()
	p, err := DecodePatch([]byte(body))
	if err != nil {
		t.Fatalf("%s: %v", body, err)
	}
	return p.Operations
}

// TestApplyUserPatch: Okta's and Entra ID's PATCH bodies, as their documentation shows them.
func TestApplyUserPatch(t *testing.T) {
	base := func() *User {
		return &User{UserName: "ann@acme.com", GivenName: "Ann", FamilyName: "Lee", Active: true, ExternalID: "x"}
	}
	for _, tc := range []struct {
		name, body string
		check      func(*User) bool
		reason     string
	}{
		{"okta deactivate", `{"schemas":["urn:ietf:params:scim:api:messages:2.0:PatchOp"],"Operations":[{"op":"replace","value":{"active":false}}]}`,
			func(u *User) bool { return !u.Active }, ""},
		{"entra deactivate with a string", `{"schemas":["urn:ietf:params:scim:api:messages:2.0:PatchOp"],"Operations":[{"op":"Replace","path":"active","value":"False"}]}`,
			func(u *User) bool { return !u.Active }, ""},
		{"entra reactivate", `{"Operations":[{"op":"Replace","path":"active","value":"True"}]}`,
			func(u *User) bool { return u.Active }, ""},
		{"entra attributes", `{"schemas":["urn:ietf:params:scim:api:messages:2.0:PatchOp"],"Operations":[
			{"op":"Replace","path":"name.givenName","value":"Anne"},
			{"op":"Replace","path":"name.familyName","value":"Leigh"},
			{"op":"Add","path":"title","value":"Engineer"},
			{"op":"Replace","path":"urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department","value":"R&D"},
			{"op":"Replace","path":"emails[type eq \"work\"].value","value":"ann@acme.com"},
			{"op":"Remove","path":"externalId"}]}`,
			func(u *User) bool { return u.GivenName == "Anne" && u.FamilyName == "Leigh" && u.ExternalID == "" }, ""},
		{"okta replace name", `{"Operations":[{"op":"replace","value":{"name":{"givenName":"A"}}}]}`,
			func(u *User) bool { return u.GivenName == "A" && u.FamilyName == "" }, ""},
		{"okta replace emails", `{"Operations":[{"op":"replace","path":"emails","value":[{"value":"ann@acme.com","type":"work","primary":true}]}]}`,
			func(u *User) bool { return u.UserName == "ann@acme.com" }, ""},
		{"path-less dotted keys", `{"Operations":[{"op":"replace","value":{"name.givenName":"B","active":"false"}}]}`,
			func(u *User) bool { return u.GivenName == "B" && !u.Active }, ""},
		{"userName", `{"Operations":[{"op":"replace","path":"userName","value":"anne@acme.com"}]}`,
			func(u *User) bool { return u.UserName == "anne@acme.com" }, ""},
		{"another address", `{"Operations":[{"op":"replace","path":"emails","value":[{"value":"bob@acme.com","primary":true}]}]}`, nil, "scim_invalid_value"},
		{"unknown attribute", `{"Operations":[{"op":"replace","path":"favouriteColour","value":"blue"}]}`, nil, "scim_invalid_path"},
		{"not a boolean", `{"Operations":[{"op":"replace","path":"active","value":"maybe"}]}`, nil, "scim_invalid_value"},
		{"remove active", `{"Operations":[{"op":"remove","path":"active"}]}`, nil, "scim_mutability"},
		{"remove without path", `{"Operations":[{"op":"remove"}]}`, nil, "scim_no_target"},
		{"bad path", `{"Operations":[{"op":"replace","path":"emails[type eq","value":"x"}]}`, nil, "scim_invalid_path"},
	} {
		u := base()
		err := ApplyUserPatch(u, ops(t, tc.body))
		if tc.reason != "" {
			if apperr.ReasonOf(err) != tc.reason {
				t.Errorf("%s: %v, want %s", tc.name, err, tc.reason)
			}
			continue
		}
		if err != nil || !tc.check(u) {
			t.Errorf("%s: %+v %v", tc.name, u, err)
		}
	}
	for _, bad := range []string{`{`, `{"Operations":[]}`, `{"Operations":[{"op":"move","path":"active"}]}`} {
		if _, err := DecodePatch([]byte(bad)); err == nil || apperr.CodeOf(err) != apperr.Invalid {
			t.Errorf("%s: %v", bad, err)
		}
	}
}

func TestApplyGroupPatch(t *testing.T) {
	g := &Group{DisplayName: "Admin", Members: []Ref{{Value: "a"}}}
	steps := []struct {
		body string
		want []string
		name string
	}{
		{`{"Operations":[{"op":"add","path":"members","value":[{"value":"b"},{"value":"a"}]}]}`, []string{"a", "b"}, "Admin"},
		{`{"Operations":[{"op":"remove","path":"members[value eq \"a\"]"}]}`, []string{"b"}, "Admin"},
		{`{"Operations":[{"op":"Add","path":"members","value":[{"value":"c"}]},{"op":"Remove","path":"members","value":[{"value":"b"}]}]}`, []string{"c"}, "Admin"},
		{`{"Operations":[{"op":"replace","value":{"id":"x","displayName":"Viewer"}}]}`, []string{"c"}, "Viewer"},
		{`{"Operations":[{"op":"replace","path":"members","value":[{"value":"d"},{"value":"d"}]}]}`, []string{"d"}, "Viewer"},
		{`{"Operations":[{"op":"remove","path":"members"}]}`, nil, "Viewer"},
	}
	for _, st := range steps {
		if err := ApplyGroupPatch(g, ops(t, st.body)); err != nil {
			t.Fatalf("%s: %v", st.body, err)
		}
		var got []string
		for _, m := range g.Members {
			got = append(got, m.Value)
		}
		if g.DisplayName != st.name || len(got) != len(st.want) {
			t.Fatalf("%s: %s %v, want %s %v", st.body, g.DisplayName, got, st.name, st.want)
		}
		for i := range got {
			if got[i] != st.want[i] {
				t.Fatalf("%s: %v, want %v", st.body, got, st.want)
			}
		}
	}
	if err := ApplyGroupPatch(g, ops(t, `{"Operations":[{"op":"add","path":"members[value eq \"a\"]","value":[{"value":"a"}]}]}`)); apperr.ReasonOf(err) != "scim_invalid_path" {
		t.Errorf("add with a filter: %v", err)
	}
}

func TestRoleFor(t *testing.T) {
	for _, tc := range []struct {
		groups  []string
		mapping map[string]string
		want    string
	}{
		{nil, nil, "member"},
		{[]string{"Viewer"}, nil, "viewer"},
		{[]string{"viewer", "Admin"}, nil, "admin"},
		{[]string{"Owner"}, nil, "member"},
		{[]string{"Engineering"}, nil, "member"},
		{[]string{"Engineering"}, map[string]string{"engineering": "admin"}, "admin"},
		{[]string{"admin"}, map[string]string{"engineering": "admin"}, "member"},
		{[]string{"Sales", "Support"}, map[string]string{"sales": "viewer", "support": "member"}, "member"},
	} {
		if got := RoleFor(tc.groups, tc.mapping); got != tc.want {
			t.Errorf("%v %v: %s, want %s", tc.groups, tc.mapping, got, tc.want)
		}
	}
}

// TestDecodeUser reads Okta's and Entra ID's create bodies, as their documentation shows them.
func TestDecodeUser(t *testing.T) {
	okta := `{"schemas":["urn:ietf:params:scim:schemas:core:2.0:User"],"userName":"isaac.brock@acme.com",
		"name":{"givenName":"Isaac","familyName":"Brock"},"emails":[{"primary":true,"value":"isaac.brock@acme.com","type":"work"}],
		"displayName":"Isaac Brock","locale":"en-US","externalId":"00ujl29u0le5T6Aj10h7","groups":[],"password":"1mz050nq","active":true}`
	u, err := DecodeUser([]byte(okta))
	if err != nil || u.UserName != "isaac.brock@acme.com" || u.GivenName != "Isaac" || u.ExternalID != "00ujl29u0le5T6Aj10h7" || !u.Active {
		t.Fatalf("okta: %+v %v", u, err)
	}
	entra := `{"schemas":["urn:ietf:params:scim:schemas:core:2.0:User","urn:ietf:params:scim:schemas:extension:enterprise:2.0:User"],
		"externalId":"0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef","userName":"Test_User@acme.com","active":true,
		"emails":[{"primary":true,"type":"work","value":"Test_User@acme.com"}],"meta":{"resourceType":"User"},
		"name":{"formatted":"givenName familyName","familyName":"familyName","givenName":"givenName"},"roles":[],
		"urn:ietf:params:scim:schemas:extension:enterprise:2.0:User":{"department":"R&D"}}`
	u, err = DecodeUser([]byte(entra))
	if err != nil || u.UserName != "Test_User@acme.com" || u.Formatted != "givenName familyName" {
		t.Fatalf("entra: %+v %v", u, err)
	}
	for body, reason := range map[string]string{
		`{"userName":"a@acme.com","favouriteColour":"blue"}`: "scim_invalid_syntax",
		`{"name":{"givenName":"A"}}`:                         "scim_invalid_value",
		`[1]`:                                                "scim_invalid_syntax",
		`{"userName":"a@acme.com","active":"perhaps"}`:       "scim_invalid_value",
		`{"userName":7}`:                                     "scim_invalid_value",
	} {
		if _, err := DecodeUser([]byte(body)); apperr.ReasonOf(err) != reason {
			t.Errorf("%s: %v, want %s", body, err, reason)
		}
	}
}

func TestAnswers(t *testing.T) {
	u := &User{ID: "u1", UserName: "a@acme.com", Active: true, Groups: []Ref{{Value: "g1", Display: "Admin"}}}
	b, _ := json.Marshal(UserAnswer(u, "https://s.example/scim/v2/7"))
	var back map[string]any
	_ = json.Unmarshal(b, &back)
	if back["meta"].(map[string]any)["location"] != "https://s.example/scim/v2/7/Users/u1" || back["emails"].([]any)[0].(map[string]any)["value"] != "a@acme.com" {
		t.Errorf("user answer: %s", b)
	}
	if Find(Schemas("x"), SchemaUser) == nil || Find(ResourceTypes("x"), "Group") == nil || Find(ResourceTypes("x"), "Nope") != nil {
		t.Error("discovery documents")
	}
}
