package tooldef

import (
	"encoding/json"
	"fmt"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// CodeLimited is the JSON-RPC error code of a request refused by a limit
// (one in the implementation-defined server error range): a session's
// requests in flight or call rate, a client's running tasks.
const CodeLimited = -32000

// envelopeData is a protocol error's data: the envelope, plus
// machine_code and human_message for clients that look for those names.
type envelopeData struct {
	contract.Error
	MachineCode  contract.Code `json:"machine_code"`
	HumanMessage string        `json:"human_message"`
}

// ProtocolError is a JSON-RPC error carrying the envelope e in its data,
// for a refusal answered before (or instead of) a tool's result.
func ProtocolError(code int64, e *contract.Error) *jsonrpc.Error {
	data, err := json.Marshal(envelopeData{Error: *e, MachineCode: e.Code, HumanMessage: e.Message})
	if err != nil {
		data = nil
	}
	return &jsonrpc.Error{Code: code, Message: fmt.Sprintf("%s: %s", e.Code, e.Message), Data: data}
}

// LimitError is [ProtocolError] for a refusal by a limit ([CodeLimited]).
func LimitError(e *contract.Error) *jsonrpc.Error { return ProtocolError(CodeLimited, e) }
