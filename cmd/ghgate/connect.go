package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"syscall"
	"time"

	"github.com/spf13/cobra"
)

// connectDrain bounds how long connect waits for the broker to finish
// answering once the agent closed its side.
const connectDrain = 30 * time.Second

func newConnectCommand() *cobra.Command {
	var socket string
	cmd := &cobra.Command{
		Use:   "connect --socket PATH",
		Short: "Bridge stdio to a ghgate broker's socket (the agent's MCP server command)",
		Long: `Bridge this process's stdin and stdout to a ghgate broker's Unix socket,
byte for byte, so an agent's MCP config needs nothing but this command:

  {"command": "ghgate", "args": ["connect", "--socket", "/run/ghgate/ghgate.sock"]}

The agent holds no credential: the broker on the other end does. Errors go to
stderr; the exit status is non-zero when the socket cannot be opened or the
broker hangs up first.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			conn, err := dialBroker(socket)
			if err != nil {
				return err
			}
			defer conn.Close()
			return bridge(conn, cmd.InOrStdin(), cmd.OutOrStdout())
		},
	}
	cmd.Flags().StringVar(&socket, "socket", "", "the broker's socket (required)")
	_ = cmd.MarkFlagRequired("socket")
	return cmd
}

// dialBroker opens the socket and explains the usual failures in terms of
// what the user can do about them.
func dialBroker(path string) (*net.UnixConn, error) {
	conn, err := net.DialUnix("unix", nil, &net.UnixAddr{Name: path, Net: "unix"})
	switch {
	case err == nil:
		return conn, nil
	case errors.Is(err, fs.ErrPermission):
		return nil, fmt.Errorf("permission denied opening the broker socket %s: this user is not in the socket's group "+
			"(ask the operator to add it to the bridge group, then log in again)", path)
	case errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("no broker socket at %s: is the broker running, and is this the configured [listen] socket?", path)
	case errors.Is(err, syscall.ECONNREFUSED):
		return nil, fmt.Errorf("nothing is listening on %s: the broker is not running", path)
	default:
		return nil, fmt.Errorf("opening the broker socket %s: %w", path, err)
	}
}

// bridge copies in→conn and conn→out until either side closes. When the
// agent closes stdin, the socket's write side is shut so the broker ends
// the session, and its last answers still reach stdout.
func bridge(conn *net.UnixConn, in io.Reader, out io.Writer) error {
	fromBroker := make(chan error, 1)
	go func() {
		_, err := io.Copy(out, conn)
		fromBroker <- err
	}()
	fromAgent := make(chan error, 1)
	go func() {
		_, err := io.Copy(conn, in)
		fromAgent <- err
	}()
	select {
	case err := <-fromBroker:
		if err != nil {
			return fmt.Errorf("reading from the broker: %w", err)
		}
		return errors.New("the broker closed the connection")
	case err := <-fromAgent:
		if err != nil {
			return fmt.Errorf("forwarding to the broker: %w", err)
		}
		_ = conn.CloseWrite()
	}
	select {
	case err := <-fromBroker:
		if err != nil && !errors.Is(err, net.ErrClosed) {
			return fmt.Errorf("reading from the broker: %w", err)
		}
		return nil
	case <-time.After(connectDrain):
		return errors.New("the broker did not close the session after stdin ended")
	}
}
