// The TypeScript MCP SDK's client calling `retrieve` over streamable HTTP, for bench/mcp.py.
//   node mcp_client.mjs URL
// Reads one JSON list of queries per line on stdin, calls `retrieve` for each in turn on one session, and answers each line
// with one JSON line: the latency of every call in ms, the failed calls, and the client's own CPU time in ms.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { createInterface } from "node:readline";

const client = new Client({ name: "self-rag-bench", version: "0" });
await client.connect(new StreamableHTTPClientTransport(new URL(process.argv[2])));
for await (const line of createInterface({ input: process.stdin })) {
  const ms = [];
  let errors = 0;
  const cpu0 = process.cpuUsage();
  for (const query of JSON.parse(line)) {
    const t = performance.now();
    const r = await client.callTool({ name: "retrieve", arguments: { query } });
    ms.push(performance.now() - t);
    if (r.isError || !r.structuredContent?.hits?.length) errors++;
  }
  const cpu = process.cpuUsage(cpu0);
  console.log(JSON.stringify({ ms, errors, cpu_ms: (cpu.user + cpu.system) / 1000 }));
}
await client.close();
