"""Stands in for the get-pip.py that ansible-test downloads from ci-files.testing.ansible.com (a host outside
PyPI, which tests may not reach): the venv's own ensurepip, then pip from PyPI at the version asked.
ansible-test runs it as `python get_pip.py --disable-pip-version-check pip==X [--no-setuptools] [--no-wheel]`.
"""
import subprocess
import sys

args = [a for a in sys.argv[1:] if a not in ('--no-setuptools', '--no-wheel')]
subprocess.check_call([sys.executable, '-m', 'ensurepip', '--default-pip'], stdout=subprocess.DEVNULL)
subprocess.check_call([sys.executable, '-m', 'pip', 'install', '--quiet'] + args)
