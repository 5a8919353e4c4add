package route

import _ "embed"

// Recorder is the TypeScript of the in-game recorder `worldcook route
// --recorder` prints: a system for a development build of an Estella
// game that records the streaming source's world position each frame and
// saves it as a route CSV in the format WriteCSV writes.
//
//go:embed recorder.ts
var Recorder string
