package postgres_test

import (
	"context"
	"testing"

	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/postgres"
	"github.com/shortlink/shortlink/backend/scim"
)

// TestSCIMStoreKeepsWorkspacesApart: a user or group of one workspace is not found, changed or
// deleted through another; migration 00045 goes down and up again.
func TestSCIMStoreKeepsWorkspacesApart(t *testing.T) {
	ctx := context.Background()
	db, provider := migratedDB(t)
	a, b := newWorkspace(t, db), newWorkspace(t, db)
	st := postgres.NewSCIMStore(db)
	allow := func(string) error { return nil }
	u, _, err := st.CreateUser(ctx, a, &scim.User{UserName: "ann@acme.com", Active: true, Role: "member"}, allow)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.User(ctx, b, u.ID); !apperr.Is(err, apperr.NotFound) {
		t.Errorf("a's user through b: %v", err)
	}
	if _, _, err := st.UpdateUser(ctx, b, u.ID, func(x *scim.User) error { x.Active = false; return nil }); !apperr.Is(err, apperr.NotFound) {
		t.Errorf("b deactivating a's user: %v", err)
	}
	if _, err := st.DeleteUser(ctx, b, u.ID); !apperr.Is(err, apperr.NotFound) {
		t.Errorf("b deleting a's user: %v", err)
	}
	roleOf := func([]string) string { return "member" }
	if _, _, err := st.CreateGroup(ctx, b, &scim.Group{DisplayName: "admin", Members: []scim.Ref{{Value: u.ID}}}, roleOf); !apperr.Is(err, apperr.Invalid) {
		t.Errorf("b's group with a's user: %v", err)
	}
	list, total, err := st.Users(ctx, b, scim.Query{Attr: "userName", Value: "ann@acme.com"}, scim.Page{StartIndex: 1, Count: 10})
	if err != nil || total != 0 || len(list) != 0 {
		t.Errorf("b's list: %d %v", total, err)
	}
	if _, err := st.User(ctx, a, "not-a-uuid"); !apperr.Is(err, apperr.NotFound) {
		t.Errorf("an ID that is no UUID: %v", err)
	}
	if _, err := provider.DownTo(ctx, 44); err != nil {
		t.Fatal(err)
	}
	if _, err := provider.Up(ctx); err != nil {
		t.Fatal(err)
	}
}
