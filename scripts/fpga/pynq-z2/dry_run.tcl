# Dry run of generated Vivado Tcl in plain tclsh: every command tclsh does not know (the
# Vivado ones) is stubbed and logged, so the script's own Tcl -- braces, variables,
# control flow -- runs for real. Usage: tclsh dry_run.tcl build.tcl [more.tcl ...]
# build.tcl sources bd.tcl itself; each file is also checked with `info complete`.
foreach f $argv {
  set fp [open $f]
  set text [read $fp]
  close $fp
  if {![info complete $text]} {
    puts stderr "$f: incomplete Tcl (unbalanced braces, brackets or quotes)"
    exit 1
  }
}
proc unknown {args} {
  puts "vivado: [string range [join $args] 0 150]"
  return ""
}
# Vivado's `cd` target exists; `file copy` of the handoff is guarded by a glob that finds
# nothing in a dry run, and `error` would stop it: the error path is the test.
if {[catch {source [lindex $argv 0]} msg]} {
  if {[string match "accel_bd.hwh not found*" $msg]} {
    puts "dry run reached the end (no accel_bd.hwh without Vivado, as expected)"
    exit 0
  }
  puts stderr "dry run failed: $msg"
  exit 1
}
puts "dry run reached the end"
