// @ts-check

/**
 * Applies the result of one request. Host writes are recorded by hookrun,
 * never performed, and show up as effects in the run report.
 *
 * @param {import("../types/hookrun").ApplyResultArgs} args
 */
export async function applyResult({ parent, resultContext, runtime }) {
  if (!parent) {
    throw new Error("this workflow needs a parent item");
  }
  const count = resultContext.preflight?.context?.attachmentCount ?? 0;
  const written = await runtime.hostApi.notes.create({
    operationId: `${runtime.workflowId}:${parent.libraryId}:${parent.key}`,
    placement: { kind: "child", parentRef: { libraryId: parent.libraryId, key: parent.key } },
    content: { format: "html", value: `<p>Processed ${count} attachment(s) with ${runtime.workflowId}</p>` },
  });
  if (written.outcome !== "committed" && written.outcome !== "unchanged") {
    throw new Error(written.attempt?.error?.message ?? "Workflow Host mutation failed");
  }
  return { note: written.result?.note.ref, result: resultContext.resultJson ?? null };
}
