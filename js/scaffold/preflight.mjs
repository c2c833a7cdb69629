// @ts-check

/**
 * Decides, once per unit and before any request is built, what happens to it:
 * `continue`, `skip`, `short-circuit-apply` or `replace-units`.
 *
 * @param {import("../types/hookrun").PreflightArgs} args
 * @returns {Promise<import("../types/hookrun").PreflightOutcome>}
 */
export async function preflight({ selectionContext, runtime }) {
  // Units keep the shape of the user's selection: grouped or canonical.
  const attachments =
    "selectionType" in selectionContext
      ? selectionContext.items.attachments
      : selectionContext.items.filter((fact) => fact.kind === "attachment");
  if (attachments.length === 0) {
    return { kind: "skip", reason: "no attachment in this unit" };
  }
  console.log(`${runtime.workflowId}: ${attachments.length} attachment(s) to process`);
  return { kind: "continue", context: { attachmentCount: attachments.length } };
}
