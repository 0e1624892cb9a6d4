package httpapi

//go:generate go run ./openapi/bundle -src openapi -out openapi.json

import (
	_ "embed"
	"net/http"

	"github.com/gin-gonic/gin"
)

// openAPI is the API's OpenAPI 3 document, built from the YAML files in openapi/ by go generate;
// openapi_test.go keeps it in step with its source and with the routes.
//
//go:embed openapi.json
var openAPI []byte

func serveOpenAPI(c *gin.Context) {
	c.Header("Cache-Control", "public, max-age=300")
	c.Data(http.StatusOK, "application/json", openAPI)
}
