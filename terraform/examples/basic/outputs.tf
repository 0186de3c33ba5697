output "warehouse" {
  description = "The exact value of the pipelines' --warehouse option."
  value       = module.warehouse.warehouse_uri
}

output "region" {
  description = "The pipelines' S3 region."
  value       = module.warehouse.region
}

output "pipeline_args" {
  description = "The pipelines' S3 settings as command-line options; on AWS there is no endpoint override, path-style access is off and credentials come from the default provider chain (the worker role)."
  value       = "--warehouse=${module.warehouse.warehouse_uri} --s3Region=${module.warehouse.region}"
}

output "worker_role_arn" {
  description = "Role the pipeline workers run as."
  value       = module.warehouse.worker_role_arn
}

output "worker_instance_profile_name" {
  description = "Instance profile to launch the workers' EC2 or EMR instances with."
  value       = module.warehouse.worker_instance_profile_name
}

output "worker_policy_arn" {
  description = "Read, write and delete policy on the warehouse prefix."
  value       = module.warehouse.worker_policy_arn
}

output "reader_policy_arn" {
  description = "Read-only policy on the warehouse prefix, for consumers."
  value       = module.warehouse.reader_policy_arn
}

output "kms_key_arn" {
  description = "KMS key of the bucket, or null with SSE-S3."
  value       = module.warehouse.kms_key_arn
}
