provider "aws" {
  region = var.region

  default_tags {
    tags = {
      project = "changelake"
    }
  }
}

module "warehouse" {
  source = "../../modules/warehouse"

  bucket_name       = var.bucket_name
  warehouse_prefix  = var.warehouse_prefix
  encryption        = var.encryption
  kms_key_arn       = var.kms_key_arn
  access_log_bucket = var.access_log_bucket

  # Workers on EC2 or EMR instances; use pods.eks.amazonaws.com for EKS Pod Identity.
  worker_trusted_services = ["ec2.amazonaws.com"]
  create_instance_profile = true
}
