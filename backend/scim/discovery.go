package scim

// The discovery documents of RFC 7644 section 4: what this service provider supports, its
// resource types and their schemas. base is the workspace's SCIM URL.

type obj = map[string]any

func meta(resourceType, location string) obj {
	return obj{"resourceType": resourceType, "location": location}
}

// ServiceProviderConfig says what is supported: PATCH and filters, no bulk, sorting,
// password changes or ETags; bearer tokens.
func ServiceProviderConfig(base string) any {
	return obj{
		"schemas":          []string{SchemaSPConfig},
		"documentationUri": "https://github.com/shortlink/shortlink/blob/main/docs/scim.md",
		"patch":            obj{"supported": true},
		"bulk":             obj{"supported": false, "maxOperations": 0, "maxPayloadSize": 0},
		"filter":           obj{"supported": true, "maxResults": MaxCount},
		"changePassword":   obj{"supported": false},
		"sort":             obj{"supported": false},
		"etag":             obj{"supported": false},
		"authenticationSchemes": []obj{{
			"type": "oauthbearertoken", "name": "SCIM token", "primary": true,
			"description": "A workspace's SCIM token, made by an owner, as Authorization: Bearer <token>.",
		}},
		"meta": meta("ServiceProviderConfig", base+"/ServiceProviderConfig"),
	}
}

// ResourceTypes are User and Group.
func ResourceTypes(base string) []any {
	return []any{
		obj{"schemas": []string{SchemaResource}, "id": "User", "name": "User", "endpoint": "/Users",
			"description": "A person of the workspace", "schema": SchemaUser, "meta": meta("ResourceType", base+"/ResourceTypes/User")},
		obj{"schemas": []string{SchemaResource}, "id": "Group", "name": "Group", "endpoint": "/Groups",
			"description": "A group; its name may give its members a role", "schema": SchemaGroup,
			"meta": meta("ResourceType", base+"/ResourceTypes/Group")},
	}
}

func attr(name, typ string, required bool, mutability, uniqueness string, sub ...obj) obj {
	a := obj{"name": name, "type": typ, "multiValued": false, "required": required, "caseExact": false,
		"mutability": mutability, "returned": "default", "uniqueness": uniqueness}
	if len(sub) > 0 {
		a["subAttributes"] = sub
	}
	return a
}

func multi(a obj) obj {
	a["multiValued"] = true
	return a
}

// Schemas are the attributes of Users and Groups that are kept.
func Schemas(base string) []any {
	ref := func(n string) obj { return attr(n, "string", false, "readOnly", "none") }
	return []any{
		obj{"schemas": []string{SchemaSchema}, "id": SchemaUser, "name": "User", "description": "A person of the workspace",
			"attributes": []obj{
				attr("userName", "string", true, "readWrite", "server"),
				attr("externalId", "string", false, "readWrite", "none"),
				attr("name", "complex", false, "readWrite", "none",
					attr("givenName", "string", false, "readWrite", "none"),
					attr("familyName", "string", false, "readWrite", "none"),
					attr("formatted", "string", false, "readWrite", "none")),
				attr("displayName", "string", false, "readWrite", "none"),
				attr("active", "boolean", false, "readWrite", "none"),
				multi(attr("emails", "complex", false, "readWrite", "none",
					attr("value", "string", false, "readWrite", "none"),
					attr("type", "string", false, "readWrite", "none"),
					attr("primary", "boolean", false, "readWrite", "none"))),
				multi(attr("groups", "complex", false, "readOnly", "none", ref("value"), ref("display"), ref("$ref"))),
			},
			"meta": meta("Schema", base+"/Schemas/"+SchemaUser)},
		obj{"schemas": []string{SchemaSchema}, "id": SchemaGroup, "name": "Group", "description": "A group of people",
			"attributes": []obj{
				attr("displayName", "string", true, "readWrite", "server"),
				attr("externalId", "string", false, "readWrite", "none"),
				multi(attr("members", "complex", false, "readWrite", "none",
					attr("value", "string", false, "immutable", "none"), ref("display"), ref("$ref"))),
			},
			"meta": meta("Schema", base+"/Schemas/"+SchemaGroup)},
	}
}

// Find returns the document of docs whose id is id, nil when none.
func Find(docs []any, id string) any {
	for _, d := range docs {
		if d.(obj)["id"] == id {
			return d
		}
	}
	return nil
}
