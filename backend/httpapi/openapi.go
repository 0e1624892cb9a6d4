package httpapi

import (
	_ "embed"
	"net/http"

	"github.com/gin-gonic/gin"
)

// openAPI is the API's OpenAPI 3 document; openapi_test.go keeps it in step with the routes.
//
//go:embed openapi.json
var openAPI []byte

func serveOpenAPI(c *gin.Context) {
	c.Header("Cache-Control", "public, max-age=300")
	c.Data(http.StatusOK, "application/json", openAPI)
}
