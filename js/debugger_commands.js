// The debugger's commands, declared once: the names each answers to, its usage and help, the
// sessions that take it ("hit", "shards", "job"), its button and its key. The widget imports this
// module; jaxdbg_widgets/debugger/session/commands.py reads the same table as JSON, so everything
// after `export default` stays plain JSON.
export default [
  {"key": "help", "names": ["help", "h"], "usage": "h(elp) [command]", "summary": "list the commands, or describe one", "kinds": ["hit", "shards", "job"]},
  {"key": "p", "names": ["p"], "usage": "p expression", "summary": "evaluate and print the repr of an expression", "kinds": ["hit", "shards", "job"]},
  {"key": "pp", "names": ["pp"], "usage": "pp expression", "summary": "evaluate and pretty-print an expression", "kinds": ["hit", "shards", "job"]},
  {"key": "up", "names": ["up", "u"], "usage": "u(p)", "summary": "move up a stack frame (towards the caller)", "kinds": ["hit", "shards", "job"], "button": ["Up", "Move up a stack frame (u)"], "shortcut": "u"},
  {"key": "down", "names": ["down", "d"], "usage": "d(own)", "summary": "move down a stack frame", "kinds": ["hit", "shards", "job"], "button": ["Down", "Move down a stack frame (d)"], "shortcut": "d"},
  {"key": "where", "names": ["where", "w", "bt"], "usage": "w(here), bt", "summary": "print a stack trace, most recent frame last", "kinds": ["hit", "shards", "job"], "shortcut": "w"},
  {"key": "list", "names": ["list", "l"], "usage": "l(ist)", "summary": "list source around the current line", "kinds": ["hit", "shards", "job"], "shortcut": "l"},
  {"key": "batch", "names": ["batch", "b"], "usage": "b(atch) [index]", "summary": "show or select the vmap element every value comes from", "kinds": ["hit", "shards", "job"]},
  {"key": "continue", "names": ["continue", "c", "cont"], "usage": "c(ont(inue))", "summary": "continue the program's execution", "kinds": ["hit", "shards", "job"], "button": ["Continue", "Continue the program (c)"], "shortcut": "c", "own_usage": "c [N]", "own_help": {"shards": "continue every shard, or only shard N", "job": "continue every hit of every process, or only hit N"}},
  {"key": "continue_all", "names": ["continue_all", "ca"], "usage": "ca, continue_all", "summary": "continue and skip the remaining breakpoints of this run", "kinds": ["hit", "shards", "job"], "button": ["Continue all", "Continue and skip the remaining breakpoints of this run (a)"], "shortcut": "a"},
  {"key": "quit", "names": ["quit", "q", "exit", "EOF"], "usage": "q(uit), exit", "summary": "quit the debugger and stop the computation", "kinds": ["hit", "shards", "job"], "button": ["Quit", "Quit the debugger and stop the computation (q)"], "shortcut": "q"},
  {"key": "process", "names": ["proc", "process"], "usage": "proc [N]", "summary": "list the processes, or show process N's first waiting hit", "kinds": ["job"], "own_usage": "proc [N]", "own_help": {"job": "list the processes, or show process N's first waiting hit"}},
  {"key": "device", "names": ["dev", "device"], "usage": "dev [N|name]", "summary": "list the hits, or show one", "kinds": ["shards", "job"], "own_usage": "dev [N|name]", "own_help": {"shards": "list the gathered shards, or select shard N (or a device by name)", "job": "list every hit of every process, or show hit N"}},
  {"key": "compare", "names": ["compare", "cmp"], "usage": "compare expr", "summary": "evaluate expr in every hit", "kinds": ["shards", "job"], "own_usage": "compare expr", "own_help": {"shards": "evaluate expr in every gathered shard; differing shards are marked", "job": "evaluate expr in every hit of every process, in one table"}},
  {"key": "continue_process", "names": ["cp", "continue_process"], "usage": "cp N", "summary": "continue every hit of process N", "kinds": ["job"], "own_usage": "cp N", "own_help": {"job": "continue every hit of process N"}}
];
