# -*- coding: utf-8 -*-
# Copyright: (c) 2026, The cudnnctl authors
# MIT License (see LICENSE at the root of the cudnnctl repository or https://opensource.org/license/mit)
"""Running cudnnctl and reading its one JSON document (shared by the cudnnctl.cudnn modules)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json

# cudnnctl's documented exit codes that still carry a complete document (docs/exit-codes.md):
# doctor 10 (a check failed) and 11 (healthy up to the skipped GPU layers)
DOCTOR_OUTCOMES = (0, 10, 11)


def find_executable(module):
    """The cudnnctl to run: the `executable` option (a path or a name on PATH), default cudnnctl on PATH."""
    exe = module.params.get('executable') or 'cudnnctl'
    if '/' in exe:
        return exe
    return module.get_bin_path(exe, required=True)


def run_json(module, argv, ok_codes=(0,)):
    """Runs cudnnctl with --json; returns (rc, document). Fails the task with cudnnctl's own error otherwise."""
    rc, out, err = module.run_command(argv + ['--json'], check_rc=False)
    try:
        doc = json.loads(out)
    except ValueError:
        module.fail_json(msg='%s printed no JSON document (exit code %d): %s' % (argv[0], rc, (err or out).strip()[:2000]),
                         rc=rc, cmd=argv)
    if not isinstance(doc, dict):
        module.fail_json(msg='%s printed JSON that is not an object' % argv[0], rc=rc, cmd=argv)
    if rc not in ok_codes or doc.get('error'):
        error = doc.get('error') or {}
        msg = error.get('message') or (err or '').strip() or 'exit code %d' % rc
        if error.get('hint'):
            msg = '%s (%s)' % (msg, error['hint'])
        module.fail_json(msg='cudnnctl: %s' % msg, rc=rc, cmd=argv, error=error)
    return rc, doc


def failed_checks(doc):
    """The doctor document's failed checks as 'id: finding' strings."""
    return ['%s: %s' % (c.get('id'), c.get('finding')) for c in doc.get('checks') or [] if c.get('status') == 'fail']
