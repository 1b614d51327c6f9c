"""Scripted model for the hygiene plugin's end-to-end test (loaded by mock_anthropic.py).

respond(body) -> content blocks. It plays a careful model that follows the expanded skill text:
every `hygiene ...` command it runs is taken from the fenced blocks of the skill body the client
put into the request (never hard-coded here), the files it reads and writes are the ones the
skill names, and its drafts are built from the shortlist it read in a tool result.

It is stateless: each decision comes from the request body alone (the last tool call and its
result), so side requests and background notifications cannot desynchronise it. Any `is_error`
tool result ends the turn with `TOOL-ERROR-SEEN`, so the client never loops.

Set HYGIENE_E2E_MODE=resolve to only prove the skill resolved (marketplace install check): the
reply is `SKILL-RESOLVED: <skill>` as soon as the expanded skill body is seen.
"""
import json
import os
import re

REWRITER_MARK = "You write the new text for one generative entry of the hygiene report"
CLASSIFIER_MARK = "You judge shortlisted agent documents for the hygiene plugin"


# --- reading the request body ---------------------------------------------------------------

def _blocks(content):
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    return content or []


def _result_text(block):
    c = block.get("content")
    if isinstance(c, str):
        return c
    return "\n".join(b.get("text", "") for b in c or [] if b.get("type") == "text")


def system_text(body):
    s = body.get("system", "")
    if isinstance(s, list):
        return "\n".join(b.get("text", "") for b in s)
    return s or ""


def cwd_of(body):
    text = system_text(body) + "\n" + "\n".join(
        b.get("text", "") for m in body.get("messages", []) for b in _blocks(m.get("content"))
        if b.get("type") == "text")
    m = re.search(r"Primary working directory: (\S+)", text)
    if m:
        return m.group(1)
    m = re.search(r"[Ww]orking directory: (\S+)", text)
    return m.group(1) if m else os.getcwd()


def events(body):
    """The conversation as a flat list of (role, block) in order."""
    out = []
    for m in body.get("messages", []):
        for b in _blocks(m.get("content")):
            out.append((m.get("role"), b))
    return out


def last_skill(body):
    """(name, text, index in events) of the newest expanded hygiene skill body."""
    found = None
    for i, (role, b) in enumerate(events(body)):
        if role == "user" and b.get("type") == "text":
            m = re.search(r"Base directory for this skill: \S*/skills/(\w+)", b.get("text", ""))
            if m:
                found = (m.group(1), b["text"], i)
    return found


def tool_calls(body):
    """[(tool_use block, tool_result block or None)] in order."""
    uses, results = [], {}
    for role, b in events(body):
        if b.get("type") == "tool_use":
            uses.append(b)
        elif b.get("type") == "tool_result":
            results[b.get("tool_use_id")] = b
    return [(u, results.get(u.get("id"))) for u in uses]


def last_user_blocks(body):
    for m in reversed(body.get("messages", [])):
        if m.get("role") == "user":
            return _blocks(m.get("content"))
    return []


def fenced_commands(skill_text):
    """Each fenced block of the skill, as a list of its non-empty lines, in order."""
    blocks = re.findall(r"```[^\n]*\n(.*?)```", skill_text, re.S)
    return [[ln.strip() for ln in b.splitlines() if ln.strip()] for b in blocks]


def strip_read_numbers(text):
    """The Read tool prefixes each line with its number; give back the file's text."""
    lines = text.splitlines()
    if lines and all(re.match(r"^\s*\d+[\t\u2192]", ln) for ln in lines if ln.strip()):
        lines = [re.sub(r"^\s*\d+[\t\u2192]", "", ln, count=1) for ln in lines]
    return "\n".join(lines)


def parse_json_result(text):
    text = strip_read_numbers(text)
    start = text.find("{")
    return json.loads(text[start:text.rfind("}") + 1])


# --- replies ----------------------------------------------------------------------------------

def say(text):
    return [{"type": "text", "text": text}]


def bash(command, why):
    return {"type": "tool_use", "name": "Bash", "input": {"command": command, "description": why}}


def read(path):
    return {"type": "tool_use", "name": "Read", "input": {"file_path": path}}


def write(path, content):
    return {"type": "tool_use", "name": "Write", "input": {"file_path": path, "content": content}}


def with_entry(cmd, n):
    return re.sub(r"\bN\b", str(n), cmd)


# --- judging, as a careful model would --------------------------------------------------------

def draft_entries(shortlist):
    """Every suggestion the model agrees with, copied; a placeholder line deleted (asks); a
    resolved narrative distilled (generative) when nothing else applies."""
    entries = []
    for item in shortlist:
        kinds = {s.get("kind"): s for s in item.get("signals", [])}

        def entry(**kw):
            e = {"path": item["path"], "signals": item["signals"]}
            if item.get("lifecycle"):
                e["lifecycle"] = item["lifecycle"]
            e.update(kw)
            entries.append(e)

        for s in item.get("suggestions", []):
            entry(category=s["category"], op=s["op"], op_type="deterministic",
                  exact_edit=s["exact_edit"])
        if "provisional-marker" in kinds:
            line = kinds["provisional-marker"]["lines"][0]
            entry(category={"class": "stale", "subtype": "provisional"},
                  op="Delete the placeholder line %d." % line, op_type="deterministic",
                  exact_edit={"kind": "delete-range",
                              "anchor": {"start_line": line, "end_line": line}})
        elif not item.get("suggestions") and (
                "status-done" in kinds or "checklist-complete" in kinds):
            entry(category={"class": "bloat", "subtype": "distill"},
                  op="Distill the resolved narrative to the facts that still hold.",
                  op_type="generative", is_destructive=True, is_reversible=True)
    return {"entries": entries}


def rewrite(original):
    """The rewriter's proposal: keep the title and the status, drop the narrative."""
    lines = original.splitlines()
    title = next((ln for ln in lines if ln.startswith("#")), "# Notes")
    status = next((ln for ln in lines if ln.lower().startswith("status:")), "")
    out = [title, ""]
    if status:
        out += [status, ""]
    out.append("Distilled: the incident is resolved; the fix is in the code and its tests.")
    return "\n".join(out) + "\n"


# --- flows ------------------------------------------------------------------------------------

def rewriter(body, cwd):
    calls = tool_calls(body)
    prompt = next((b.get("text", "") for _, b in events(body) if b.get("type") == "text"
                   and re.search(r"Entry \d+: path", b.get("text", ""))), "")
    m = re.search(r"Entry (\d+): path (\S+?)\.? Op:.*?Write (\S+\.md)", prompt, re.S)
    if not m:
        return say("REWRITER: prompt not understood: " + prompt[:300])
    n, path, proposal = m.group(1), m.group(2), m.group(3)
    if not calls:
        return [read(os.path.join(cwd, path))]
    use, res = calls[-1]
    if use["name"] == "Read":
        return [write(os.path.join(cwd, proposal), rewrite(strip_read_numbers(_result_text(res))))]
    return say("Wrote %s: distilled entry %s." % (proposal, n))


def batch_items(text):
    """The items of a batch file the Read tool returned: each `item:` line's JSON."""
    items = []
    for ln in strip_read_numbers(text).splitlines():
        if ln.startswith("item: "):
            items.append(json.loads(ln[len("item: "):]))
    return items


def bill_batches(text):
    """[(batch file, drafts file)] the triage output lists."""
    return re.findall(r"^(\S+\.md) -> (\S+\.json)", text, re.M)


def agent_tool(body):
    return "Agent" if "Agent" in [t.get("name") for t in body.get("tools", [])] else "Task"


def check(body, skill_text, cwd):
    """The check skill as written: scan and triage, show the bill, judge the one batch here or
    dispatch one classifier per batch, finalize, summary. It never reads the scan."""
    blocks = fenced_commands(skill_text)
    first = next(b for b in blocks if any(c.startswith("hygiene scan") for c in b))
    finalize = next(c for b in blocks for c in b if c.startswith("hygiene finalize"))
    summary = next(c for b in blocks for c in b if c.startswith("hygiene summary"))
    prompt_tpl = re.search(r"prompt `(Judge BATCH[^`]*)`", skill_text).group(1)
    calls = tool_calls(body)
    if not calls:
        return [bash(" && ".join(first), "Scan and triage")]
    use, res = calls[-1]
    cmd = use["input"].get("command", "")
    triage_out = next((_result_text(r) for u, r in calls if r and u["name"] == "Bash"
                       and "hygiene triage" in u["input"].get("command", "")), "")
    bill_line = next((ln for ln in triage_out.splitlines() if ln.startswith("bill:")), "")
    if use["name"] == "Bash" and "hygiene triage" in cmd:
        if "OVER BUDGET" in triage_out:
            return say("BILL-ASK: %s\nGo on?" % bill_line)
        batches = bill_batches(triage_out)
        if not batches:
            return [bash(finalize, "Finalize the settled drafts")]
        if len(batches) == 1:
            return [{"type": "text", "text": bill_line}, read(os.path.join(cwd, batches[0][0]))]
        return [{"type": "text", "text": bill_line}] + [
            {"type": "tool_use", "name": agent_tool(body), "input": {
                "description": "Judge %s" % os.path.basename(bf),
                "subagent_type": "hygiene:classifier",
                "run_in_background": False,
                "prompt": prompt_tpl.replace("BATCH", bf).replace("DRAFTS", df)}}
            for bf, df in batches]
    if use["name"] == "Read":
        drafts_file = dict(bill_batches(triage_out))[os.path.relpath(use["input"]["file_path"], cwd)]
        drafts = draft_entries(batch_items(_result_text(res)))
        return [write(os.path.join(cwd, drafts_file), json.dumps(drafts, indent=2) + "\n")]
    if use["name"] in ("Write", "Agent", "Task"):
        return [bash(finalize, "Finalize the drafts into the report")]
    if "hygiene finalize" in cmd:
        return [bash(summary, "Show the report summary")]
    return say("CHECK-DONE\n" + _result_text(res)[-1500:] + "\nRun /hygiene:clean to apply.")


def classifier(body, cwd):
    """The classifier agent as written: read the batch file the prompt names, write the drafts
    file it names."""
    prompt = next((b.get("text", "") for _, b in events(body) if b.get("type") == "text"
                   and re.search(r"Judge \S+\.md", b.get("text", ""))), "")
    m = re.search(r"Judge (\S+\.md) and write (\S+\.json)", prompt)
    if not m:
        return say("CLASSIFIER: prompt not understood: " + prompt[:300])
    batch, drafts_file = m.group(1), m.group(2)
    calls = tool_calls(body)
    if not calls:
        return [read(os.path.join(cwd, batch))]
    use, res = calls[-1]
    if use["name"] == "Read":
        drafts = draft_entries(batch_items(_result_text(res)))
        return [write(os.path.join(cwd, drafts_file), json.dumps(drafts, indent=2) + "\n")]
    return say("Wrote %s." % drafts_file)


def clean(body, skill_text, cwd):
    """The clean skill as written: apply auto, read the report, have proposals written, show
    every confirm entry's diff, then run each entry's approve command with the token its dry
    run printed. Approval is the client's permission prompt, not a chat question: a declined
    (or refused) command is an error result, and the model goes on with the next entry."""
    cmds = [c for b in fenced_commands(skill_text) for c in b if c.startswith("hygiene apply")]
    auto = next(c for c in cmds if "--tier auto" in c)
    dry = next(c for c in cmds if "--dry-run" in c)
    approve = next(c for c in cmds if "--approve TOKEN" in c)
    report_file = re.search(r"Read `([^`]+)`", skill_text).group(1)
    prompt_tpl = re.search(r"prompt `(Entry N:[^`]+)`", skill_text).group(1)
    calls = tool_calls(body)
    ran = [u["input"].get("command", "") for u, _ in calls if u["name"] == "Bash"]

    if not calls:
        return [bash(auto, "Apply the safe edits")]
    report = None
    for u, r in calls:
        if u["name"] == "Read" and u["input"]["file_path"].endswith(report_file) and r:
            report = parse_json_result(_result_text(r))
    if report is None:
        return [read(os.path.join(cwd, report_file))]
    entries = report["entries"]
    confirm = [i for i, e in enumerate(entries) if e["safety_tier"] == "confirm"]
    generative = [i for i in confirm if "exact_edit" not in entries[i]]

    # Proposals for generative entries first, through the rewriter subagent.
    dispatched = {int(m.group(1)) for u, _ in calls if u["name"] in ("Agent", "Task")
                  for m in [re.search(r"Entry (\d+):", u["input"].get("prompt", ""))] if m}
    todo = [n for n in generative if n not in dispatched]
    if todo:
        return [{"type": "tool_use", "name": agent_tool(body), "input": {
            "description": "Rewrite hygiene entry %d" % n,
            "subagent_type": "hygiene:rewriter",
            "run_in_background": False,
            "prompt": prompt_tpl.replace("Entry N", "Entry %d" % n)
            .replace("path P", "path " + entries[n]["path"]).replace("OP", entries[n]["op"])
            .replace("proposals/N.md", "proposals/%d.md" % n)}} for n in todo]
    tokens = {}
    for u, r in calls:
        if u["name"] == "Bash" and "--dry-run" in u["input"].get("command", "") and r:
            for m in re.finditer(r"approve with: hygiene apply --entry (\d+) --approve (\w+)",
                                 _result_text(r)):
                tokens[int(m.group(1))] = m.group(2)
    for n in confirm:
        cmd = with_entry(dry, n)
        if cmd not in ran:
            return [bash(cmd, "Show the diff of entry %d" % n)]
    if not confirm:
        return say("CLEAN-DONE: only safe edits were pending.")
    for n in confirm:
        if n not in tokens:
            continue
        cmd = with_entry(approve, n).replace("TOKEN", tokens[n])
        if cmd not in ran:
            text = "Entry %d: %s" % (n, entries[n]["op"])
            return [{"type": "text", "text": text}, bash(cmd, "Apply entry %d" % n)]
    outcomes = []
    for u, r in calls:
        c = u["input"].get("command", "") if u["name"] == "Bash" else ""
        m = re.search(r"--entry (\d+) --approve", c)
        if m and "--dry-run" not in c:
            outcomes.append("%s:%s" % (m.group(1), "declined-or-refused"
                                        if r and r.get("is_error") else "applied"))
    return say("CLEAN-DONE: " + " ".join(outcomes))


# --- mode "hook" (tests/plugin.rs, e2e_hook_reports_a_rename_in_the_same_turn) ---------------
# The agent renames a file that CLAUDE.md names; the plugin's PostToolUse hook must put its report
# into the very next request. Then calls that break nothing (a read-only command, a Write of a new
# document, the fix applied in place with sed), which must add nothing; then a rename in a command
# that fails afterwards, which the PostToolUseFailure hook must report. The step is the number of
# tool calls in the request; only the step meant to fail may fail.

HOOK_MODE = "hook"
HOOK_STEPS = [
    ("Bash", {"command": "git mv src/a.rs src/b.rs", "description": "Rename the module"}),
    ("Bash", {"command": "ls src", "description": "List the sources"}),
    ("Write", {"file_path": "NOTES.md", "content": "# Notes\n\nNothing to see.\n"}),
    ("Bash", {"command": "sed -i 's#src/a.rs#src/b.rs#' CLAUDE.md", "description": "Fix it"}),
    ("Bash", {"command": "git mv src/b.rs src/c.rs && false", "description": "Rename, then fail"}),
]
HOOK_FAILING_STEP = 4


def hook_flow(body, cwd):
    if not any(t.get("name") == "Bash" for t in body.get("tools", [])):
        return say("MOCK: side request")
    calls = tool_calls(body)
    done = len(calls)
    if calls and calls[-1][1] and calls[-1][1].get("is_error") and done - 1 != HOOK_FAILING_STEP:
        return say("TOOL-ERROR-SEEN: " + _result_text(calls[-1][1])[-600:])
    if done >= len(HOOK_STEPS):
        return say("HOOK-DONE")
    name, args = HOOK_STEPS[done]
    args = dict(args)
    if "file_path" in args:
        args["file_path"] = os.path.join(cwd, args["file_path"])
    return [{"type": "tool_use", "name": name, "input": args}]

# --- end of mode "hook" -------------------------------------------------------------------------


def respond(body):
    cwd = cwd_of(body)
    if os.environ.get("HYGIENE_E2E_MODE") == HOOK_MODE:
        return hook_flow(body, cwd)
    # An error ends the turn, except where the skill expects one: an approve command the user
    # declined at the client's permission prompt (or that the helper refused).
    calls = tool_calls(body)
    last_cmd = calls[-1][0]["input"].get("command", "") if calls else ""
    expected_error = "--approve" in last_cmd and "--dry-run" not in last_cmd
    for b in last_user_blocks(body):
        if b.get("type") == "tool_result" and b.get("is_error") and not expected_error:
            return say("TOOL-ERROR-SEEN: " + _result_text(b)[-600:])
    system = system_text(body)
    if REWRITER_MARK in system:
        return rewriter(body, cwd)
    if CLASSIFIER_MARK in system:
        return classifier(body, cwd)
    skill = last_skill(body)
    if skill is None:
        return say("MOCK: no hygiene skill in this request")
    name, text, _ = skill
    if os.environ.get("HYGIENE_E2E_MODE") == "resolve":
        return say("SKILL-RESOLVED: " + name)
    if name == "check":
        return check(body, text, cwd)
    if name == "clean":
        return clean(body, text, cwd)
    return say("MOCK: no script for skill " + name)
