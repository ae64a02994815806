# Assertions shared by the backup test scripts (sourced): each counts into pass / fail and
# prints what differed.
pass=0; fail=0
check() { # name, expected, actual
  if [ "$2" == "$3" ]; then pass=$((pass+1)); else fail=$((fail+1)); printf 'FAIL %s\n  want: %q\n  got:  %q\n' "$1" "$2" "$3"; fi
}
check_has() { # name, needle, haystack
  if [[ "$3" == *"$2"* ]]; then pass=$((pass+1)); else fail=$((fail+1)); printf 'FAIL %s\n  want substring: %q\n  got:  %q\n' "$1" "$2" "$3"; fi
}
