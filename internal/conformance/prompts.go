package conformance

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

var promptNames = []string{"test_simple_prompt", "test_prompt_with_arguments", "test_prompt_with_embedded_resource",
	"test_prompt_with_image", "test_input_required_result_prompt"}

func user(c mcp.Content) *mcp.PromptMessage { return &mcp.PromptMessage{Role: "user", Content: c} }

func registerPrompts(m *mcp.Server, _ *Fixtures) {
	m.AddPrompt(&mcp.Prompt{Name: "test_simple_prompt", Description: "A prompt without arguments"},
		func(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{user(&mcp.TextContent{Text: "This is a simple prompt for testing."})}}, nil
		})
	m.AddPrompt(&mcp.Prompt{Name: "test_prompt_with_arguments", Description: "A prompt with two arguments", Arguments: []*mcp.PromptArgument{
		{Name: "arg1", Description: "First test argument", Required: true}, {Name: "arg2", Description: "Second test argument", Required: true}}},
		func(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			a := req.Params.Arguments
			return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{user(&mcp.TextContent{
				Text: fmt.Sprintf("Prompt with arguments: arg1='%s', arg2='%s'", a["arg1"], a["arg2"])})}}, nil
		})
	m.AddPrompt(&mcp.Prompt{Name: "test_prompt_with_embedded_resource", Description: "A prompt embedding a resource", Arguments: []*mcp.PromptArgument{
		{Name: "resourceUri", Description: "URI of the resource to embed", Required: true}}},
		func(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			uri := req.Params.Arguments["resourceUri"]
			if uri == "" {
				return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "resourceUri is required"}
			}
			return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{
				user(&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: uri, MIMEType: "text/plain", Text: "Embedded resource content for testing."}}),
				user(&mcp.TextContent{Text: "Please process the embedded resource above."}),
			}}, nil
		})
	m.AddPrompt(&mcp.Prompt{Name: "test_prompt_with_image", Description: "A prompt with an image"},
		func(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{
				user(&mcp.ImageContent{Data: redPixel, MIMEType: "image/png"}),
				user(&mcp.TextContent{Text: "Please analyze the image above."}),
			}}, nil
		})
	m.AddPrompt(&mcp.Prompt{Name: "test_input_required_result_prompt", Description: "Asks for context, then gives the prompt"},
		func(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			if c, _ := accepted(req.Params.InputResponses, "user_context")["context"].(string); c != "" {
				return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{user(&mcp.TextContent{Text: "Context: " + c})}}, nil
			}
			return &mcp.GetPromptResult{InputRequests: mcp.InputRequestMap{"user_context": &mcp.ElicitParams{
				Message: "Please provide context for the prompt", RequestedSchema: objectSchema("context")}}}, nil
		})
}

func registerResources(m *mcp.Server) {
	m.AddResource(&mcp.Resource{URI: "test://static-text", Name: "static-text", Description: "A static text resource", MIMEType: "text/plain"},
		func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: "test://static-text", MIMEType: "text/plain",
				Text: "This is the content of the static text resource."}}}, nil
		})
	m.AddResource(&mcp.Resource{URI: "test://static-binary", Name: "static-binary", Description: "A static PNG", MIMEType: "image/png"},
		func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: "test://static-binary", MIMEType: "image/png", Blob: redPixel}}}, nil
		})
	m.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: "test://template/{id}/data", Name: "template", Description: "Data by id", MIMEType: "application/json"},
		func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			id, ok := strings.CutPrefix(req.Params.URI, "test://template/")
			if id, ok = strings.CutSuffix(id, "/data"); !ok || id == "" || strings.Contains(id, "/") {
				return nil, mcp.ResourceNotFoundError(req.Params.URI)
			}
			body, _ := json.Marshal(map[string]any{"id": id, "templateTest": true, "data": "Data for ID: " + id})
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, MIMEType: "application/json", Text: string(body)}}}, nil
		})
}
