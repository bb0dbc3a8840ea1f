#!/usr/bin/env python3
"""Translates sam-template.yaml into plain CloudFormation with AWS's SAM translator, the way `sam validate` does.

`sam validate` (aws-sam-cli samcli/lib/translate/sam_template_validator.py) parses the YAML with the CloudFormation
short-form tags, replaces every local CodeUri with a fake S3 URI (the translator accepts only S3 locations), and calls
samtranslator's Translator(managed_policy_map=None, sam_parser=Parser(), plugins=[], boto_session=...).translate(
template, parameter_values=<overrides>, get_managed_policy_map=<loader>). The one difference here: offline there is no
IAM ListPolicies call, so managed policy names resolve from sam-managed-policies.json beside this script (the AWS
managed policies the template and the translator use, by name and ARN). The template uses no Fn::ForEach (its
per-tier blocks are generated from the tier catalogue), so nothing needs expanding first.

Usage: python3 .ci/sam-translate.py [TEMPLATE [OUTPUT]] [Name=Value ...]
    (defaults: sam-template.yaml, target/sam-translated.json; Name=Value: parameter values, as `sam deploy
    --parameter-overrides` passes them to the transform; the rest take their defaults)
"""
import json
import os
import sys

from boto3.session import Session
from samtranslator.parser import parser
from samtranslator.translator.translator import Translator
from samtranslator.yaml_helper import yaml_parse

HERE = os.path.dirname(os.path.abspath(__file__))
FAKE_CODE_URI = "s3://bucket/value"  # what sam validate puts in place of a local CodeUri


def managed_policy_map():
    with open(os.path.join(HERE, "sam-managed-policies.json"), encoding="utf-8") as f:
        return {name: policy["Arn"] for name, policy in json.load(f)["policies"].items()}


def replace_local_code_uris(template):
    for resource in template.get("Resources", {}).values():
        properties = resource.get("Properties", {})
        if resource.get("Type") == "AWS::Serverless::Function" and properties.get("PackageType", "Zip") == "Zip":
            uri = properties.get("CodeUri", ".")
            if not isinstance(uri, dict) and not str(uri).startswith("s3://"):
                properties["CodeUri"] = FAKE_CODE_URI


def main(argv):
    overrides = dict(arg.split("=", 1) for arg in argv[1:] if "=" in arg)
    paths = [arg for arg in argv[1:] if "=" not in arg]
    source = paths[0] if len(paths) > 0 else "sam-template.yaml"
    target = paths[1] if len(paths) > 1 else os.path.join("target", "sam-translated.json")
    with open(source, encoding="utf-8") as f:
        template = yaml_parse(f.read())
    replace_local_code_uris(template)
    policies = managed_policy_map()
    translator = Translator(managed_policy_map=None, sam_parser=parser.Parser(), plugins=[],
                            boto_session=Session(region_name=os.environ.get("AWS_REGION", "us-east-1")))
    translated = translator.translate(sam_template=template, parameter_values=overrides,
                                      get_managed_policy_map=lambda: policies)
    os.makedirs(os.path.dirname(os.path.abspath(target)), exist_ok=True)
    with open(target, "w", encoding="utf-8") as f:
        json.dump(translated, f, indent=2, sort_keys=True)
        f.write("\n")
    print(f"sam-translate: {source} {overrides or ''} -> {target} ({len(translated.get('Resources', {}))} resources)")


if __name__ == "__main__":
    main(sys.argv)
