#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: (c) 2026, The cudnnctl authors
# MIT License (see LICENSE at the root of the cudnnctl repository or https://opensource.org/license/mit)

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
---
module: cudnn_facts
short_description: Gather cudnnctl's diagnosis of a CUDA toolkit's cuDNN as facts
version_added: "1.0.0"
description:
  - Runs C(cudnnctl doctor --json --no-gpu) on the managed host and returns its document as the fact
    C(ansible_facts.cudnnctl), with the toolkit, every check with its status, finding, cause and fix, and the counts.
  - Never changes anything; the GPU workload is not run.
options:
  cuda_path:
    description:
      - The CUDA toolkit to diagnose. Default, the one cudnnctl finds (C(CUDA_PATH), C(CUDA_HOME), nvcc, ...).
    type: path
  executable:
    description:
      - The cudnnctl to run, a path or a name looked up on C(PATH).
    type: str
    default: cudnnctl
  require_healthy:
    description:
      - Fail the host when a check failed, with each failed check's id and finding in C(msg) (the facts are then
        not set).
    type: bool
    default: false
author:
  - The cudnnctl authors (@cudnnctl)
attributes:
  check_mode:
    description: Runs the same read-only diagnosis in check mode.
    support: full
  diff_mode:
    description: Changes nothing, so there is nothing to show.
    support: none
  facts:
    description: Sets C(ansible_facts.cudnnctl).
    support: full
'''

EXAMPLES = r'''
- name: Read the cuDNN state of each node
  cudnnctl.cudnn.cudnn_facts:
    cuda_path: /usr/local/cuda-13.0

- name: Fail nodes whose cuDNN does not pass cudnnctl's checks
  cudnnctl.cudnn.cudnn_facts:
    require_healthy: true

- name: Show the failed checks
  ansible.builtin.debug:
    msg: "{{ ansible_facts.cudnnctl.checks | selectattr('status', 'equalto', 'fail') | map(attribute='id') | list }}"
'''

RETURN = r'''
ansible_facts:
  description: Facts added.
  returned: always
  type: complex
  contains:
    cudnnctl:
      description: The C(cudnnctl doctor --json) document (schema C(cudnnctl.doctor/2), docs/json.md).
      returned: always
      type: dict
failed_checks:
  description: "The failed checks, each as C(id: finding)."
  returned: always
  type: list
  elements: str
'''

from ansible.module_utils.basic import AnsibleModule
from ansible_collections.cudnnctl.cudnn.plugins.module_utils.cudnnctl import (
    DOCTOR_OUTCOMES, failed_checks, find_executable, run_json)


def main():
    module = AnsibleModule(
        argument_spec=dict(
            cuda_path=dict(type='path'),
            executable=dict(type='str', default='cudnnctl'),
            require_healthy=dict(type='bool', default=False),
        ),
        supports_check_mode=True,
    )
    argv = [find_executable(module), 'doctor', '--no-gpu']
    if module.params['cuda_path']:
        argv += ['--cuda-path', module.params['cuda_path']]
    dummy, doc = run_json(module, argv, ok_codes=DOCTOR_OUTCOMES)
    failed = failed_checks(doc)
    result = dict(changed=False, ansible_facts=dict(cudnnctl=doc), failed_checks=failed)
    if failed and module.params['require_healthy']:
        # the failed checks only: the whole document would bury the message
        module.fail_json(msg='cudnnctl doctor: %s' % '; '.join(failed), changed=False, failed_checks=failed)
    module.exit_json(**result)


if __name__ == '__main__':
    main()
