#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: (c) 2026, The cudnnctl authors
# MIT License (see LICENSE at the root of the cudnnctl repository or https://opensource.org/license/mit)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
---
module: cudnn_install
short_description: Install NVIDIA cuDNN into a CUDA toolkit with cudnnctl
version_added: "1.0.0"
description:
  - Installs a cuDNN archive, or a release cudnnctl chooses, downloads and verifies, into a CUDA toolkit with
    C(cudnnctl install), as one transaction cudnnctl can undo; or undoes it (O(state=absent), C(cudnnctl uninstall)).
  - C(changed) is cudnnctl's own verdict, so a second run with the same archive reports ok.
  - Check mode runs C(cudnnctl install --dry-run) and reports what would change. With C(--diff), the cuDNN
    version of cudnnctl's receipt in the toolkit before and after.
options:
  archive:
    description:
      - An NVIDIA cuDNN archive file on the managed host, under NVIDIA's file name. Mutually exclusive with O(version).
    type: path
  version:
    description:
      - A release to choose for this host's toolkit, driver and GPUs and download (C(latest), C(9), C(9.19),
        C(9.19.0.56)). Mutually exclusive with O(archive).
    type: str
  sha256:
    description:
      - The archive's expected SHA-256, for an archive cudnnctl's catalog does not know.
    type: str
  mirror:
    description:
      - With O(version), download from this mirror instead of NVIDIA.
    type: str
  cuda_path:
    description:
      - The CUDA toolkit. Default, the one cudnnctl finds (C(CUDA_PATH), C(CUDA_HOME), nvcc, ...).
      - Required with O(state=absent).
    type: path
  state:
    description:
      - V(present) installs; V(absent) removes cudnnctl's install and puts back what it replaced.
    type: str
    choices: [present, absent]
    default: present
  executable:
    description:
      - The cudnnctl to run, a path or a name looked up on C(PATH).
    type: str
    default: cudnnctl
author:
  - The cudnnctl authors (@cudnnctl)
attributes:
  check_mode:
    description: Runs C(cudnnctl install --dry-run) and reports whether it would change the toolkit.
    support: full
  diff_mode:
    description: The cuDNN version of cudnnctl's receipt in the toolkit before and after.
    support: full
'''

EXAMPLES = r'''
- name: Install an archive copied to the node
  cudnnctl.cudnn.cudnn_install:
    archive: /srv/cudnn/cudnn-linux-x86_64-9.19.0.56_cuda13-archive.tar.xz
    cuda_path: /usr/local/cuda-13.0

- name: Install the newest cuDNN 9 that fits each node, from a local mirror
  cudnnctl.cudnn.cudnn_install:
    version: "9"
    mirror: https://mirror.example.org/cudnn/

- name: Remove it again
  cudnnctl.cudnn.cudnn_install:
    cuda_path: /usr/local/cuda-13.0
    state: absent
'''

RETURN = r'''
before:
  description: The cuDNN version cudnnctl's receipt in the toolkit named before the task, or null.
  returned: always
  type: str
after:
  description: The cuDNN version it names after the task (in check mode, would name), or null.
  returned: always
  type: str
toolkit:
  description: The toolkit's root folder.
  returned: always
  type: str
summary:
  description: cudnnctl's one-line summary.
  returned: always
  type: str
cudnnctl:
  description: cudnnctl's JSON document (C(cudnnctl.install/...) or C(cudnnctl.uninstall/...), docs/json.md).
  returned: always
  type: dict
'''

import json
import os

from ansible.module_utils.basic import AnsibleModule
from ansible_collections.cudnnctl.cudnn.plugins.module_utils.cudnnctl import find_executable, run_json

RECEIPT_MAX_BYTES = 16 * 1024 * 1024


def receipt_version(root):
    """The version named by cudnnctl's receipt in the toolkit (docs/install.md), or None."""
    if not root:
        return None
    path = os.path.join(root, '.cudnnctl', 'receipt.json')
    if not os.path.isfile(path) or os.path.getsize(path) > RECEIPT_MAX_BYTES:
        return None
    try:
        with open(path, 'rb') as f:
            doc = json.loads(f.read(RECEIPT_MAX_BYTES).decode('utf-8'))
    except (IOError, OSError, ValueError, UnicodeDecodeError):
        return None
    return doc.get('version') if isinstance(doc, dict) else None


def toolkit_root(doc):
    toolkit = doc.get('toolkit') or {}
    return toolkit.get('root') if isinstance(toolkit, dict) else None


def archive_version(module, exe, archive):
    """The version NVIDIA's file name of the archive says: `cudnnctl inspect NAME` on the bare name, from an empty
    folder, so only the name is read (not the archive's contents)."""
    rc, out, dummy = module.run_command([exe, 'inspect', os.path.basename(archive), '--json'], cwd=module.tmpdir, check_rc=False)
    try:
        return json.loads(out).get('version')
    except (ValueError, AttributeError):
        return None


def install(module, exe):
    p = module.params
    argv = [exe, 'install', p['archive'] or p['version'], '--no-path']
    for option, value in (('--cuda-path', p['cuda_path']), ('--sha256', p['sha256']), ('--mirror', p['mirror'])):
        if value:
            argv += [option, value]
    dummy, plan = run_json(module, argv + ['--dry-run'])
    if plan.get('resolution') and not plan.get('toolkit'):
        # a release request's dry run stops at the choice: the toolkit and version it chose
        chosen = plan['resolution'].get('chosen') or {}
        machine = plan['resolution'].get('machine') or {}
        root = (machine.get('toolkit') or {}).get('root') or p['cuda_path']
        before = receipt_version(root)
        after = chosen.get('version') or before
        would_change = after != before
    else:
        root = toolkit_root(plan)
        before = receipt_version(root)
        would_change = bool(plan.get('changed'))  # a dry run's changed: would change
        after = (archive_version(module, exe, p['archive']) if would_change else before) or before
    if module.check_mode:
        return dict(changed=would_change, before=before, after=after, toolkit=root, summary=plan.get('summary', ''), cudnnctl=plan)
    dummy, doc = run_json(module, argv)
    root = toolkit_root(doc) or root
    return dict(changed=bool(doc.get('changed')), before=before, after=receipt_version(root), toolkit=root,
                summary=doc.get('summary', ''), cudnnctl=doc)


def uninstall(module, exe):
    p = module.params
    argv = [exe, 'uninstall'] + (['--cuda-path', p['cuda_path']] if p['cuda_path'] else [])
    root = p['cuda_path']
    before = receipt_version(root)
    if module.check_mode:
        # uninstall has no dry run: cudnnctl's install is there when its receipt is
        return dict(changed=before is not None, before=before, after=None, toolkit=root,
                    summary='would remove cuDNN %s' % before if before else 'nothing installed by cudnnctl', cudnnctl={})
    dummy, doc = run_json(module, argv)
    root = toolkit_root(doc) or root
    return dict(changed=bool(doc.get('changed')), before=before, after=receipt_version(root), toolkit=root,
                summary=doc.get('summary', ''), cudnnctl=doc)


def main():
    module = AnsibleModule(
        argument_spec=dict(
            archive=dict(type='path'),
            version=dict(type='str'),
            sha256=dict(type='str'),
            mirror=dict(type='str'),
            cuda_path=dict(type='path'),
            state=dict(type='str', default='present', choices=['present', 'absent']),
            executable=dict(type='str', default='cudnnctl'),
        ),
        mutually_exclusive=[('archive', 'version')],
        required_if=[('state', 'present', ('archive', 'version'), True), ('state', 'absent', ('cuda_path',))],
        supports_check_mode=True,
    )
    exe = find_executable(module)
    result = install(module, exe) if module.params['state'] == 'present' else uninstall(module, exe)
    if module._diff:
        result['diff'] = dict(before='cudnn: %s\n' % (result['before'] or 'none'), after='cudnn: %s\n' % (result['after'] or 'none'),
                              before_header='%s (cuDNN by cudnnctl)' % result['toolkit'],
                              after_header='%s (cuDNN by cudnnctl)' % result['toolkit'])
    module.exit_json(**result)


if __name__ == '__main__':
    main()
